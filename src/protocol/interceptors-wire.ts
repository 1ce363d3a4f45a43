/**
 * The wire shapes of SEP-2624's interceptors extension (`interceptors/list`,
 * `interceptor/invoke`). The SEP is a draft: these are not in the vendored schemas.
 */

/** An interceptor as `interceptors/list` describes it. */
export interface InterceptorDescriptor {
  name: string;
  version?: string;
  description?: string;
  type: 'validation' | 'mutation';
  hooks: Array<{ events: string[]; phase: 'request' | 'response' }>;
  mode?: 'active' | 'audit';
  failOpen?: boolean;
  priorityHint?: number | { request?: number; response?: number };
}

/** The params of `interceptors/list`. */
export interface ListInterceptorsParams {
  /** Only the interceptors hooked into this event. */
  event?: string;
  [key: string]: unknown;
}

/** The result of `interceptors/list`. */
export interface ListInterceptorsResult {
  interceptors: InterceptorDescriptor[];
  [key: string]: unknown;
}

/** The params of `interceptor/invoke`. */
export interface InvokeInterceptorParams {
  name: string;
  event: string;
  phase: 'request' | 'response';
  payload: unknown;
  config?: Record<string, unknown>;
  /** Past this, the call fails with -32000 (the SEP's timeout error). */
  timeoutMs?: number;
  context?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The result of `interceptor/invoke` for a validator or a mutator. */
export interface InvokeInterceptorResult {
  interceptor: string;
  type: 'validation' | 'mutation';
  phase: 'request' | 'response';
  durationMs?: number;
  info?: Record<string, unknown>;
  /** Validators. */
  valid?: boolean;
  severity?: 'info' | 'warn' | 'error';
  messages?: Array<{ path?: string; message: string; severity: 'info' | 'warn' | 'error' }>;
  /** Mutators. */
  modified?: boolean;
  payload?: unknown;
  [key: string]: unknown;
}
