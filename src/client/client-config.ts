/**
 * What a `Client` makes of its options once, at construction: its handlers and the
 * capabilities they declare, the settings each connection reads, and its request pipeline's
 * options. Internal.
 */
import { sessionLoggerOf } from '../session/index.js';
import type { SessionLogger } from '../session/index.js';
import { warnDeprecated } from '../protocol/deprecation.js';
import { ROOTS_DEPRECATED, SAMPLING_DEPRECATED } from '../protocol/deprecated-features.js';
import type { TelemetrySetting } from '../telemetry/telemetry-options.js';
import { DEFAULT_PROBE_TIMEOUT_MS } from './era-selection.js';
import { HandlerSet, mergeCapabilities } from './handlers.js';
import { DEFAULT_MAX_INPUT_ROUNDS } from './mrtr.js';
import { OutputValidator } from './output-validation.js';
import type { PipelineOptions } from './request-pipeline.js';
import { ResultCache } from './result-cache.js';
import type { TaskRequestOptions } from './task-receiver.js';
import type { ClientOptions, EraPreference, ResubscribeOptions } from './types.js';

/** Numbers the default cache namespaces, one per client of the process. */
let clientCount = 0;

export interface ClientConfig {
  readonly handlers: HandlerSet;
  /** What the client declares: derived from its handlers, merged with `capabilities`. */
  readonly capabilities: Record<string, unknown>;
  /** Set when the server may task-augment elicitation and sampling (2025-11-25). */
  readonly taskRequests: TaskRequestOptions | undefined;
  readonly era: EraPreference;
  readonly probeTimeoutMs: number;
  readonly timeoutMs: number | undefined;
  readonly maxTotalTimeoutMs: number | undefined;
  readonly versions: readonly string[] | undefined;
  readonly autoRefreshTools: boolean;
  /** The logger given, if one was (the session keeps its own default otherwise). */
  readonly logger: SessionLogger | undefined;
  /** Telemetry to load with the first connection. */
  readonly telemetry: TelemetrySetting | undefined;
  readonly resubscribe: ResubscribeOptions | undefined;
  readonly tasks: boolean;
  readonly outputs: OutputValidator | undefined;
  readonly pipeline: PipelineOptions;
}

export function clientConfig(options: ClientOptions): ClientConfig {
  const handlers = new HandlerSet(options.handlers);
  const taskCap = options.taskRequests ? handlers.taskCapability() : undefined;
  const taskRequests = !taskCap ? undefined : options.taskRequests === true ? {} : options.taskRequests || {};
  const derived = taskCap ? { ...handlers.capabilities, tasks: taskCap } : handlers.capabilities;
  const capabilities = mergeCapabilities(derived, options.capabilities);
  // SEP-2577: declaring a deprecated capability is using it; the wire is unchanged.
  if (capabilities.roots !== undefined) warnDeprecated('roots', ROOTS_DEPRECATED);
  if (capabilities.sampling !== undefined) warnDeprecated('sampling', SAMPLING_DEPRECATED);
  const cache = options.cache ?? true;
  return {
    handlers,
    capabilities,
    taskRequests,
    era: options.era ?? 'auto',
    probeTimeoutMs: options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
    timeoutMs: options.timeoutMs,
    maxTotalTimeoutMs: options.maxTotalTimeoutMs,
    versions: options.versions,
    autoRefreshTools: options.autoRefreshTools ?? false,
    logger: options.logger === undefined ? undefined : sessionLoggerOf(options.logger),
    telemetry: options.telemetry || undefined,
    resubscribe: options.resubscribe,
    tasks: options.tasks !== false,
    outputs: options.validateOutput === false ? undefined : new OutputValidator(options.jsonSchemaValidator),
    pipeline: {
      answerer: handlers,
      maxInputRounds: options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
      cache: cache === false ? undefined : cache === true ? new ResultCache() : cache,
      partition: {
        namespace: options.cacheNamespace ?? `client-${++clientCount}`,
        authContext: options.authContext ?? '',
      },
      interceptors: options.interceptors,
      logger: sessionLoggerOf(options.logger),
    },
  };
}
