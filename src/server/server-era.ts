/**
 * What the server's own machinery does differently in the two eras, as one object per era.
 * A handler author meets the eras through `ServerContext`; this is the same idea for the
 * server's internals, so that they ask a named question instead of comparing era names.
 */
import { ErrorCode, LocalError, WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import { merged } from '../jsonrpc/with-field.js';
import type { Era } from '../protocol/versions.js';
import { legacyTasks, modernTasks } from './task-era.js';
import type { TaskEra } from './task-era.js';

export interface ServerEra {
  readonly name: Era;
  /**
   * Handlers of the methods that may ask for input get the replay state of earlier rounds
   * (`inputResponses`, `requestState`): MRTR, modern only.
   */
  readonly replaysInput: boolean;
  /** The error code for an unknown resource URI: -32002 (legacy), invalid params (2026-07-28). */
  readonly resourceNotFoundCode: number;
  /** The client may run a server-to-client request as a task (2025-11-25 task augmentation). */
  readonly clientTasksByAugmentation: boolean;
  /**
   * Adds the cache hints the era's results carry (`ttlMs`, `cacheScope`) to a result of a
   * method the method table does not describe (the skills extension's).
   */
  withCacheHints(result: Record<string, unknown>): Record<string, unknown>;
  /** How tasks are created, shaped, owned and reported: 2025-11-25 tasks or the tasks extension. */
  readonly tasks: TaskEra;
  /**
   * A handler's question with no replay state or task to carry it is a server-to-client
   * request (legacy). The modern era has no such requests: only the methods that can answer
   * `input_required` can ask.
   */
  readonly asksByRequest: boolean;
  /**
   * The client's change notifications come only on a `subscriptions/listen` stream
   * (modern). A legacy connection hears the list changes its capabilities announce and the
   * updates of the resources it subscribed to, and has no `subscriptions/listen`.
   */
  readonly subscribesByListen: boolean;
  /**
   * The params of a URL-mode elicitation: `elicitationId` is required in 2025-11-25 (one is
   * made when the handler gave none) and gone in 2026-07-28.
   */
  urlElicitation(params: Params, elicitationId: string | undefined): Params;
  /**
   * The error refusing a question the client cannot answer: MissingRequiredClientCapability
   * (-32021, HTTP 400) in the modern era, as the spec requires; a local error in the legacy
   * era, which a tool turns into an `isError` result.
   */
  questionRefused(missing: string, capabilityPath: string): Error;
}

/** `{ sampling: { tools: {} } }` for `sampling.tools`. */
function capabilityObject(path: string): Record<string, unknown> {
  return path.split('.').reduceRight<Record<string, unknown>>((inner, part) => ({ [part]: inner }), {});
}

/** `initialize`-based sessions (2024-11-05 to 2025-11-25). */
export const legacyServerEra: ServerEra = {
  name: 'legacy',
  replaysInput: false,
  resourceNotFoundCode: ErrorCode.ResourceNotFound,
  clientTasksByAugmentation: true,
  withCacheHints: (result) => result,
  tasks: legacyTasks,
  asksByRequest: true,
  subscribesByListen: false,
  urlElicitation: (params, elicitationId) => ({
    ...params,
    elicitationId: elicitationId ?? crypto.randomUUID(),
  }),
  questionRefused: (missing) => new LocalError('CapabilityNotSupported', missing),
};

/** The stateless revision (2026-07-28). */
export const modernServerEra: ServerEra = {
  name: 'modern',
  replaysInput: true,
  resourceNotFoundCode: ErrorCode.InvalidParams,
  clientTasksByAugmentation: false,
  withCacheHints: (result) => merged(result, { ttlMs: 0, cacheScope: 'private' }),
  tasks: modernTasks,
  asksByRequest: false,
  subscribesByListen: true,
  urlElicitation: (params) => params,
  questionRefused: (missing, capabilityPath) =>
    new WireError(ErrorCode.MissingRequiredClientCapability, missing, {
      requiredCapabilities: capabilityObject(capabilityPath),
    }),
};

/** The strategy of a request's era. */
export function serverEraOf(era: Era): ServerEra {
  return era === 'modern' ? modernServerEra : legacyServerEra;
}
