import { LocalError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import { MetaKey } from '../protocol/meta-keys.js';
import { Method } from '../protocol/methods.js';
import type { DiscoverResult, ServerCapabilities } from '../protocol/types/index.js';
import type { Era } from '../protocol/versions.js';
import type { LogLevel } from '../session/logging-levels.js';
import type { RequestOptions } from '../session/options.js';
import type { Session } from '../session/session.js';
import { withTasksExtension } from './tasks.js';
import { isObject } from '../jsonrpc/is-object.js';
import { withField } from '../jsonrpc/with-field.js';

/**
 * Everything the `Client` does differently in the two eras, as one object per era. Era
 * selection decides which one a connection gets; the client's methods call it instead of
 * asking the session which era it is in.
 */
export interface ClientEra {
  readonly name: Era;
  /** Results carry cache hints (`ttlMs`, `cacheScope`) only in the modern era. */
  readonly cachesResults: boolean;
  /** `list_changed` reaches the client only on a `subscriptions/listen` stream (modern). */
  readonly listChangedNeedsStream: boolean;
  /** A server may answer `tools/call`, `prompts/get` and `resources/read` with `input_required`. */
  readonly inputRequired: boolean;
  /**
   * A subscription is one long-lived `subscriptions/listen` request whose notifications carry
   * its id (modern). Otherwise it is a `resources/subscribe` per URI, and it receives the
   * notifications the server sends anyway that match what it asked for (legacy).
   */
  readonly subscribesByListen: boolean;
  /** A tool call becomes a task by task augmentation (2025-11-25), not the tasks extension. */
  readonly tasksByAugmentation: boolean;
  /**
   * A task's result comes from a blocking `tasks/result`, and a fresh `CreateTaskResult` is
   * as good as a first poll (2025-11-25). Otherwise (the tasks extension) a terminal
   * `tasks/get` carries the result or error inline, and questions are answered with
   * `tasks/update`.
   */
  readonly taskResultBlocks: boolean;
  /** The server lists a client's tasks (`tasks/list`, 2025-11-25); the extension has no listing. */
  readonly listsTasks: boolean;
  /** Params of a task-aware request: the modern era declares the tasks extension on each. */
  taskParams(params: Params, capabilities: Readonly<Record<string, unknown>>, session: Session): Params;
  /**
   * The task in a `tools/call` answer: `task` of a `CreateTaskResult` (2025-11-25), or the
   * answer itself when its `resultType` is `task` (extension). `undefined` when the answer
   * is the tool's result.
   */
  taskOf(result: Record<string, unknown>): unknown;
  /** Checks the server is alive. */
  ping(session: Session, options?: RequestOptions): Promise<void>;
  /**
   * Sets the lowest log level: legacy asks the server now; modern returns the level, which
   * every following request then carries in `_meta`.
   */
  setLogLevel(session: Session, level: LogLevel, options?: RequestOptions): Promise<LogLevel | undefined>;
  /** A request's params with the log level the client keeps (modern); legacy sent it once. */
  withLogLevel(params: Params, level: LogLevel | undefined): Params;
  /** The server's versions, capabilities and identity; `fetch` asks `server/discover`. */
  discover(session: Session, fetch: () => Promise<DiscoverResult>): Promise<DiscoverResult>;
  /** Tells the server that the roots changed, where the era has a message for it. */
  rootsChanged(session: Session, listChanged: boolean): Promise<void>;
}

/** `initialize`-based sessions (2024-11-05 to 2025-11-25). */
export const legacyEra: ClientEra = {
  name: 'legacy',
  cachesResults: false,
  inputRequired: false,
  listChangedNeedsStream: false,
  subscribesByListen: false,
  tasksByAugmentation: true,
  taskResultBlocks: true,
  listsTasks: true,
  taskParams: (params) => params,
  taskOf: (result) => (isObject(result.task) ? result.task : undefined),
  async ping(session, options) {
    await session.request(Method.ping, undefined, options);
  },
  async setLogLevel(session, level, options) {
    await session.request(Method['logging/setLevel'], { level }, options);
    return undefined;
  },
  withLogLevel: (params) => params,
  discover: (session) => Promise.resolve(legacyDiscoverResult(session)),
  async rootsChanged(session, listChanged) {
    if (listChanged) await session.notify('notifications/roots/list_changed');
  },
};

/** The stateless revision (2026-07-28): `_meta` on every request. */
export const modernEra: ClientEra = {
  name: 'modern',
  cachesResults: true,
  inputRequired: true,
  listChangedNeedsStream: true,
  subscribesByListen: true,
  tasksByAugmentation: false,
  taskResultBlocks: false,
  listsTasks: false,
  taskParams: withTasksExtension,
  taskOf: (result) => (result.resultType === 'task' ? result : undefined),
  ping(session) {
    // The modern era has no ping; rather than pretend, say what to use instead.
    return Promise.reject(
      new LocalError(
        'CapabilityNotSupported',
        `ping does not exist in protocol ${session.protocolVersion}; call discover() to check the server is alive`,
      ),
    );
  },
  setLogLevel: (_session, level) => Promise.resolve(level),
  withLogLevel(params, level) {
    if (level === undefined) return params;
    const own = params._meta;
    // withField, not a spread: see with-field.ts (Node 20).
    const meta = isObject(own) ? withField(own, MetaKey.LogLevel, level) : { [MetaKey.LogLevel]: level };
    return withField(params, '_meta', meta);
  },
  async discover(session, fetch) {
    const result = await fetch();
    session.applyDiscover(result);
    return result;
  },
  // The server asks for roots when it needs them; the new list is simply used then.
  rootsChanged: () => Promise.resolve(),
};

/** The strategy of an era already known, e.g. from a request's context. */
export function clientEraOf(era: Era): ClientEra {
  return era === 'modern' ? modernEra : legacyEra;
}

/** What `server/discover` would have said, built from a legacy `initialize` answer. */
export function legacyDiscoverResult(session: Session): DiscoverResult {
  const out: DiscoverResult = {
    supportedVersions: session.protocolVersion ? [session.protocolVersion] : [],
    capabilities: (session.peerCapabilities ?? {}) as ServerCapabilities,
    ttlMs: 0,
    cacheScope: 'private',
  };
  if (session.peerInfo) out._meta = { [MetaKey.ServerInfo]: session.peerInfo };
  if (session.peerInstructions !== undefined) out.instructions = session.peerInstructions;
  return out;
}
