/** Public option, handler and event types of the client API. */
import type { TelemetrySetting } from '../telemetry/telemetry-options.js';
import type { JsonSchemaValidator } from '../protocol/json-schema-validator.js';
import type { Era } from '../protocol/versions.js';
import type { RequestOptions } from '../session/options.js';
import type { LoggerOption } from '../session/index.js';
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  ListRootsRequestParams,
  ListRootsResult,
  Root,
  Tool,
} from '../protocol/types/index.js';
import type { JsonRpcNotification } from '../jsonrpc/index.js';
import type { ResultCache } from './result-cache.js';
import type { TaskRequestOptions } from './task-receiver.js';
import type { TaskInfo } from './tasks.js';
import type { ClientInterceptor } from './interceptors.js';

/** Which era the client speaks: `auto` probes and falls back; see {@link ClientOptions.era}. */
export type EraPreference = 'legacy' | 'modern' | 'auto';

/** Options of one call: cancellation, timeouts and progress. */
export type CallOptions = Pick<
  RequestOptions,
  'signal' | 'timeoutMs' | 'resetTimeoutOnProgress' | 'maxTotalTimeoutMs' | 'onprogress' | 'headers'
> & {
  /** When a tool call runs as a task: each state of the task as it is seen. */
  onTaskStatus?: (task: TaskInfo) => void;
  /**
   * Run a `tools/call` as a task where the tool allows it (2025-11-25: a tool whose
   * `taskSupport` is `optional`; `required` ones always are), with the TTL asked for.
   * In the modern era the server decides, and this changes nothing.
   */
  task?: boolean | { ttlMs?: number };
};

/** What a handler learns about the request it answers. */
export interface HandlerContext {
  /** Fires when the request is cancelled, the call that needed the input is aborted, or the client closes. */
  signal: AbortSignal;
  /** `legacy`: a server-to-client request; `modern`: an MRTR input request. */
  era: Era;
  protocolVersion: string;
}

/**
 * Answers `sampling/createMessage`.
 *
 * @deprecated Sampling is deprecated as of MCP 2026-07-28 (SEP-2577); see {@link ClientHandlers.sampling}.
 */
export type SamplingHandler = (
  params: CreateMessageRequestParams,
  ctx: HandlerContext,
) => Promise<CreateMessageResult> | CreateMessageResult;

/** Answers `elicitation/create` (form or URL mode; check `params.mode`). */
export type ElicitationHandler = (
  params: ElicitRequestParams,
  ctx: HandlerContext,
) => Promise<ElicitResult> | ElicitResult;

/**
 * Answers `roots/list`.
 *
 * @deprecated Roots are deprecated as of MCP 2026-07-28 (SEP-2577); see {@link ClientHandlers.roots}.
 */
export type RootsHandler = (
  params: ListRootsRequestParams,
  ctx: HandlerContext,
) => Promise<ListRootsResult> | ListRootsResult;

/**
 * A sampling handler with the optional features it supports.
 *
 * @deprecated Sampling is deprecated as of MCP 2026-07-28 (SEP-2577); see {@link ClientHandlers.sampling}.
 */
export interface SamplingConfig {
  handler: SamplingHandler;
  /** The handler honours `tools` and `toolChoice` (declares `sampling.tools`). */
  tools?: boolean;
  /** The handler honours `includeContext` other than `none` (declares `sampling.context`). */
  context?: boolean;
}

/** An elicitation handler with the modes it supports (default: form only). */
export interface ElicitationConfig {
  handler: ElicitationHandler;
  /** Form mode (default true). */
  form?: boolean;
  /** URL mode (default false): the handler shows the user an http(s) URL to open. */
  url?: boolean;
}

/**
 * The client features a server may ask for. Each one registered is declared as a
 * capability; the same functions answer legacy server-to-client requests and modern
 * MRTR input requests.
 *
 * Elicitation rules applied around the handler: after a form-mode `accept`, schema
 * defaults fill the fields the user left out (SEP-1034). A URL-mode request whose URL is
 * not plain `http:`/`https:` (`javascript:`, `data:`, `file:`, credentials in the URL...)
 * is answered `decline` without reaching the handler, as is a mode the client did not
 * declare. The client itself never opens a URL or runs anything: the handler decides
 * how to show the URL to the user.
 *
 * @example
 * ```ts
 * const handlers: ClientHandlers = {
 *   sampling: { handler: (req, ctx) => llm.complete(req, { signal: ctx.signal }), tools: true },
 *   elicitation: { handler: (req) => dialog.ask(req), url: true },
 *   roots: [{ uri: 'file:///home/me/project', name: 'project' }],
 * };
 * ```
 */
export interface ClientHandlers {
  /**
   * Answers `sampling/createMessage` and declares the `sampling` capability.
   *
   * @deprecated Sampling is deprecated as of MCP 2026-07-28 (SEP-2577) and may be removed
   * from the first revision released on or after 2027-07-28; servers should call an LLM
   * provider's API themselves. Still declared and answered for servers that use it; a client
   * declaring it warns once per process (docs/deprecations.md).
   */
  sampling?: SamplingHandler | SamplingConfig;
  elicitation?: ElicitationHandler | ElicitationConfig;
  /**
   * A function, or a fixed list that {@link Client.setRoots} later replaces.
   *
   * @deprecated Roots are deprecated as of MCP 2026-07-28 (SEP-2577) and may be removed from
   * the first revision released on or after 2027-07-28; give servers directories or files as
   * tool parameters, resource URIs or server configuration. Still declared and answered; a
   * client declaring it warns once per process.
   */
  roots?: RootsHandler | readonly Root[];
}

/** Options of {@link Client}. */
export interface ClientOptions {
  /**
   * Which era to speak. Default `auto`, because it interoperates with servers of both eras:
   *
   * - `auto`: probe with `server/discover` (modern `_meta`, timeout `probeTimeoutMs`). A
   *   DiscoverResult, or an UnsupportedProtocolVersion error naming a version we speak,
   *   means modern; any other answer, or silence, means legacy, and the client runs
   *   `initialize`. Cost: nothing extra on a modern server (discover is its opening call
   *   anyway); one error round trip on a typical legacy server; up to `probeTimeoutMs` on
   *   a legacy server that ignores unknown requests.
   * - `modern`: pin 2026-07-28 and call `server/discover`; a legacy server fails with
   *   `VersionMismatch`.
   * - `legacy`: only the `initialize` handshake, no probe.
   */
  era?: EraPreference;
  /** How long the `auto` probe waits before deciding the server is legacy (default 3000 ms). */
  probeTimeoutMs?: number;
  /** Default per-request timeout (default 60 s). */
  timeoutMs?: number;
  /** Hard upper bound per request, progress or not (default 10 min). */
  maxTotalTimeoutMs?: number;
  /** Most MRTR rounds one call may take before failing with `TooManyRounds` (default 8). */
  maxInputRounds?: number;
  /** Protocol versions the client speaks, oldest first (default: every version mcpkit knows). */
  versions?: readonly string[];
  /** Extra capabilities, merged over the ones derived from `handlers`. */
  capabilities?: Record<string, unknown>;
  handlers?: ClientHandlers;
  /**
   * Refetch the tool list on `notifications/tools/list_changed` and report it through
   * `ontoolschanged`. In the modern era this opens a `subscriptions/listen` stream.
   */
  autoRefreshTools?: boolean;
  /**
   * Tasks (default true): `callTool` follows task results to the end in both
   * generations, task-augments calls of tools that require it (2025-11-25), and declares
   * the `io.modelcontextprotocol/tasks` extension on its modern requests. `false` turns
   * all of that off.
   */
  tasks?: boolean;
  /**
   * Let the server task-augment `elicitation/create` and `sampling/createMessage`
   * (2025-11-25 experimental tasks; default off). The client then declares
   * `tasks.requests.elicitation.create` / `sampling.createMessage` (for the handlers it
   * has), `tasks.list` and `tasks.cancel`, answers an augmented request with a
   * `CreateTaskResult`, runs the handler in the background and serves the server's
   * `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` for those tasks.
   */
  taskRequests?: boolean | TaskRequestOptions;
  /** Called with the new tool list after an automatic refresh. */
  ontoolschanged?: (tools: Tool[]) => void;
  /**
   * Cache results the server marks fresh (`ttlMs`, modern era). `true` (default) gives
   * the client a private cache; pass a {@link ResultCache} to share one between clients.
   */
  cache?: boolean | ResultCache;
  /**
   * Identifies the server for a shared cache (for example its URL or command line), so
   * `public` results are shared only between clients of the same server.
   */
  cacheNamespace?: string;
  /** Identifies the authorization context for `private` results in a shared cache. */
  authContext?: string;
  /** Re-sending `subscriptions/listen` when a stream ends without the client closing it. */
  resubscribe?: ResubscribeOptions;
  /** Receives what the engine could not hand to anyone (invalid messages, stray answers): a pino-compatible logger or a function, `false` for none. Default: stderr. */
  logger?: LoggerOption;
  /** Interceptors around every request, as if added with `Client.use` in this order. */
  interceptors?: readonly ClientInterceptor[];
  /** Validate `structuredContent` against the tool's `outputSchema` (default true). */
  validateOutput?: boolean;
  /** Validates output schemas (default: Ajv, or an interpreter where `new Function` is refused). */
  jsonSchemaValidator?: JsonSchemaValidator;
  /**
   * OpenTelemetry spans, metrics and trace context for this client's traffic (default off):
   * `true` reports to the globally registered providers; see docs/observability.md. Needs the
   * optional peer `@opentelemetry/api`, loaded with the first `connect`.
   */
  telemetry?: TelemetrySetting;
}

/** How a modern subscription whose stream ended is re-established. */
export interface ResubscribeOptions {
  /** Attempts before the subscription ends with an error (default 5). */
  attempts?: number;
  /** First delay; each attempt doubles it (default 100 ms). */
  baseDelayMs?: number;
  /** Longest delay between attempts (default 5000 ms). */
  maxDelayMs?: number;
}

/** Which change notifications a subscription wants. */
export interface SubscribeOptions {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  /** Resource URIs to watch for `notifications/resources/updated`. */
  resources?: readonly string[];
  /** Cancels opening the subscription. */
  signal?: AbortSignal;
  /** How long to wait for the server to acknowledge (default: the client's timeout). */
  timeoutMs?: number;
}

/** One change reported by a subscription: the same shape a server publishes. */
export type { ChangeEvent } from '../protocol/change-event.js';

/** Any notification from the server, as the client hands it to `onnotification`. */
export type ServerNotification = JsonRpcNotification;
