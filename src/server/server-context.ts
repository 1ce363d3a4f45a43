import { LocalError } from '../jsonrpc/index.js';
import type { Params, RequestId } from '../jsonrpc/index.js';
import { hasCapability } from '../protocol/methods.js';
import type { Era } from '../protocol/versions.js';
import type { CreateMessageRequestParams, CreateMessageResult } from '../protocol/types/sampling.js';
import type { ElicitRequestParams, ElicitResult } from '../protocol/types/elicitation.js';
import type { ListRootsResult } from '../protocol/types/roots.js';
import type { LogLevel, PeerInfo, RequestContext, RequestOptions } from '../session/index.js';
import type { InputRequest, MrtrState } from './mrtr.js';

/** Options for a question asked of the client. */
export interface AskOptions {
  /**
   * How long to wait for the client's answer in the legacy era (default: the server's
   * `timeoutMs` when set, otherwise 5 minutes, since a person may be answering).
   */
  timeoutMs?: number;
}

const ASK_TIMEOUT_MS = 5 * 60_000;

/**
 * What every server handler receives: the request's signal, progress, logging, `_meta`,
 * authentication, who the client is, and a way to ask the client for input. Asking works
 * the same in both eras: a server-to-client request on a legacy connection, an
 * `input_required` round trip on a modern one.
 *
 * @example
 * ```ts
 * server.tool({ name: 'greet', input: z.object({}) }, async (_args, ctx) => {
 *   const answer = await ctx.elicit({ message: 'Your name?', requestedSchema: {
 *     type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
 *   return answer.action === 'accept' ? `Hello ${answer.content?.name}` : 'Maybe later';
 * });
 * ```
 */
export class ServerContext {
  constructor(
    /** The engine-level context of this request. */
    readonly request: RequestContext,
    private readonly mrtr: MrtrState | undefined,
    /** The server's `timeoutMs`, when its author set one: the default for every question. */
    private readonly askTimeoutMs?: number,
  ) {}

  get signal(): AbortSignal {
    return this.request.signal;
  }
  get requestId(): RequestId {
    return this.request.requestId;
  }
  get method(): string {
    return this.request.method;
  }
  get protocolVersion(): string {
    return this.request.protocolVersion;
  }
  get era(): Era {
    return this.request.era;
  }
  get meta(): Readonly<Record<string, unknown>> | undefined {
    return this.request.meta;
  }
  /** What the HTTP auth layer verified about the caller, when auth is on. */
  get authInfo(): unknown {
    return this.request.authInfo;
  }
  /** The client's info and its capabilities (for this request, in the modern era). */
  get client(): { info: PeerInfo | undefined; capabilities: Readonly<Record<string, unknown>> } {
    return { info: this.request.peerInfo, capabilities: this.request.peerCapabilities };
  }

  /**
   * Closes this request's response stream without ending the request (legacy Streamable
   * HTTP with resumability: SSE polling). The client reconnects with Last-Event-ID and the
   * answer arrives on the resumed stream. Elsewhere it does nothing.
   */
  closeStream(): void {
    const close = this.request.transportMeta?.closeStream;
    if (typeof close === 'function') (close as () => void)();
  }

  /** Reports progress, when the client asked for it. */
  progress(progress: number, total?: number, message?: string): void {
    this.request.progress(progress, total, message);
  }

  /** Sends a log message tied to this request, if the client's level lets it through. */
  log(level: LogLevel, data: unknown, logger?: string): void {
    this.request.log(level, data, logger);
  }

  /** Asks the user something through the client (form or URL mode). */
  async elicit(params: ElicitRequestParams, options?: AskOptions): Promise<ElicitResult> {
    const url = (params as { mode?: string }).mode === 'url';
    const caps = this.request.peerCapabilities;
    if (!hasCapability(caps, 'elicitation')) {
      throw new LocalError(
        'CapabilityNotSupported',
        'The client did not declare the elicitation capability, so the user cannot be asked',
      );
    }
    if (url && !hasCapability(caps, 'elicitation.url')) {
      throw new LocalError('CapabilityNotSupported', 'The client does not support URL-mode elicitation');
    }
    let wire = params as unknown as Params;
    if (url) {
      // elicitationId is required in 2025-11-25 and gone in 2026-07-28.
      const { elicitationId, ...rest } = wire as Params & { elicitationId?: string };
      wire = this.era === 'legacy' ? { ...rest, elicitationId: elicitationId ?? crypto.randomUUID() } : rest;
    }
    return (await this.ask(
      { method: 'elicitation/create', params: wire },
      options,
    )) as unknown as ElicitResult;
  }

  /** Asks the client's LLM for a completion (with tools, when the client supports them). */
  async sample(params: CreateMessageRequestParams, options?: AskOptions): Promise<CreateMessageResult> {
    const caps = this.request.peerCapabilities;
    if (!hasCapability(caps, 'sampling')) {
      throw new LocalError('CapabilityNotSupported', 'The client did not declare the sampling capability');
    }
    if (
      (params.tools !== undefined || params.toolChoice !== undefined) &&
      !hasCapability(caps, 'sampling.tools')
    ) {
      throw new LocalError('CapabilityNotSupported', 'The client does not support tools in sampling');
    }
    return (await this.ask(
      { method: 'sampling/createMessage', params: params as unknown as Params },
      options,
    )) as unknown as CreateMessageResult;
  }

  /** Asks the client for its roots. */
  async listRoots(options?: AskOptions): Promise<ListRootsResult> {
    if (!hasCapability(this.request.peerCapabilities, 'roots')) {
      throw new LocalError('CapabilityNotSupported', 'The client did not declare the roots capability');
    }
    return (await this.ask({ method: 'roots/list' }, options)) as unknown as ListRootsResult;
  }

  private ask(request: InputRequest, options?: AskOptions): Promise<Record<string, unknown>> {
    if (this.era === 'modern') {
      if (!this.mrtr) {
        return Promise.reject(
          new LocalError(
            'CapabilityNotSupported',
            `${this.method} cannot ask the client for input (only tools/call, prompts/get and resources/read can)`,
          ),
        );
      }
      return this.mrtr.ask(request);
    }
    const opts: RequestOptions = { timeoutMs: options?.timeoutMs ?? this.askTimeoutMs ?? ASK_TIMEOUT_MS };
    return this.request.request(request.method, request.params, opts);
  }
}
