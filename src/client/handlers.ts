/**
 * The client's answers to what a server asks for (sampling, elicitation, roots): one set
 * of functions for both eras, and the capabilities they imply.
 */
import { LocalError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import type {
  CreateMessageRequestParams,
  ElicitRequestParams,
  ListRootsRequestParams,
  Root,
} from '../protocol/types/index.js';
import type { Session } from '../session/session.js';
import { applyElicitationDefaults, urlRefusal } from './elicitation.js';
import type {
  ClientHandlers,
  ElicitationHandler,
  HandlerContext,
  RootsHandler,
  SamplingHandler,
} from './types.js';
import { isObject } from '../jsonrpc/is-object.js';

/** The methods a server may ask the client to answer. */
export const INPUT_METHODS = ['sampling/createMessage', 'elicitation/create', 'roots/list'] as const;
export type InputMethod = (typeof INPUT_METHODS)[number];

/**
 * The methods a server may task-augment (2025-11-25), with the `tasks.requests` path that
 * declares each. Here rather than in the task receiver, which loads only when it is used.
 */
const TASK_AUGMENTABLE: Readonly<Record<string, readonly [string, string]>> = {
  'elicitation/create': ['elicitation', 'create'],
  'sampling/createMessage': ['sampling', 'createMessage'],
};

const ELICIT_ACTIONS: ReadonlySet<unknown> = new Set(['accept', 'decline', 'cancel']);

/** Merges explicit capabilities over derived ones, one level deep. */
export function mergeCapabilities(
  derived: Record<string, unknown>,
  explicit: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...derived };
  if (!explicit) return out;
  for (const key of Object.keys(explicit)) {
    const d = out[key];
    const v = explicit[key];
    out[key] = isObject(d) && isObject(v) ? { ...d, ...v } : v;
  }
  return out;
}

/** The registered handlers, normalized, with the capabilities they declare. */
export class HandlerSet {
  readonly capabilities: Record<string, unknown> = {};
  private readonly sampling: SamplingHandler | undefined;
  private readonly elicitation: ElicitationHandler | undefined;
  private readonly elicitForm: boolean = false;
  private readonly elicitUrl: boolean = false;
  private rootsHandler: RootsHandler | undefined;
  /** The fixed root list, when roots were given as an array (replaced by `setRoots`). */
  roots: readonly Root[] | undefined;

  constructor(handlers: ClientHandlers | undefined) {
    const s = handlers?.sampling;
    if (s) {
      const cap: Record<string, unknown> = {};
      if (typeof s === 'function') {
        this.sampling = s;
      } else {
        this.sampling = s.handler;
        if (s.tools) cap.tools = {};
        if (s.context) cap.context = {};
      }
      this.capabilities.sampling = cap;
    }
    const e = handlers?.elicitation;
    if (e) {
      const config = typeof e === 'function' ? { handler: e } : e;
      this.elicitation = config.handler;
      this.elicitForm = config.form ?? true;
      this.elicitUrl = config.url ?? false;
      const cap: Record<string, unknown> = {};
      if (this.elicitForm) cap.form = {};
      if (this.elicitUrl) cap.url = {};
      this.capabilities.elicitation = cap;
    }
    const r = handlers?.roots;
    if (r) {
      if (typeof r === 'function') this.rootsHandler = r;
      else this.roots = [...r];
      this.capabilities.roots = { listChanged: true };
    }
  }

  /** Whether a handler answers this method. */
  has(method: InputMethod): boolean {
    if (method === 'sampling/createMessage') return this.sampling !== undefined;
    if (method === 'elicitation/create') return this.elicitation !== undefined;
    return this.hasRoots;
  }

  /** The task-augmentable methods a handler answers. */
  taskAugmentable(): InputMethod[] {
    return (Object.keys(TASK_AUGMENTABLE) as InputMethod[]).filter((m) => this.has(m));
  }

  /**
   * The `tasks` capability of a client that runs the server's task-augmented requests: the
   * methods a handler answers, list and cancel (undefined when no handler answers one).
   */
  taskCapability(): Record<string, unknown> | undefined {
    const requests: Record<string, Record<string, unknown>> = {};
    for (const method of this.taskAugmentable()) {
      const [group, name] = TASK_AUGMENTABLE[method]!;
      requests[group] = { [name]: {} };
    }
    if (Object.keys(requests).length === 0) return undefined;
    return { list: {}, cancel: {}, requests };
  }

  /** `setRoots`: from now on the server gets this list, even where a roots function was registered. */
  replaceRoots(roots: readonly Root[]): void {
    this.roots = [...roots];
    this.rootsHandler = undefined;
  }

  /** Whether roots were registered (so `setRoots` has something to update). */
  get hasRoots(): boolean {
    return this.rootsHandler !== undefined || this.roots !== undefined;
  }

  /**
   * Answers one server need. Throws `HandlerMissing` when nothing is registered for the
   * method, `InvalidResult` for an unknown method or a handler result of the wrong shape.
   */
  async answer(method: string, params: Params, ctx: HandlerContext): Promise<Record<string, unknown>> {
    switch (method) {
      case 'sampling/createMessage': {
        if (!this.sampling) throw missing(method, 'handlers.sampling');
        const result: unknown = await this.sampling(params as CreateMessageRequestParams, ctx);
        if (!isObject(result) || typeof result.model !== 'string' || !('content' in result)) {
          throw new LocalError('InvalidResult', 'The sampling handler must return { role, content, model }');
        }
        return result;
      }
      case 'elicitation/create':
        return this.elicit(params as ElicitRequestParams, ctx);
      case 'roots/list': {
        if (this.rootsHandler) {
          const result: unknown = await this.rootsHandler(params as ListRootsRequestParams, ctx);
          if (!isObject(result) || !Array.isArray(result.roots)) {
            throw new LocalError('InvalidResult', 'The roots handler must return { roots: Root[] }');
          }
          return result;
        }
        if (this.roots) return { roots: this.roots.map((root) => ({ ...root })) };
        throw missing(method, 'handlers.roots');
      }
      default:
        throw new LocalError(
          'InvalidResult',
          `The server asked for ${JSON.stringify(method)}, which is not a client request`,
        );
    }
  }

  private async elicit(params: ElicitRequestParams, ctx: HandlerContext): Promise<Record<string, unknown>> {
    if (!this.elicitation) throw missing('elicitation/create', 'handlers.elicitation');
    if (!isObject(params)) return { action: 'decline' };
    const url = params.mode === 'url';
    // A mode we did not declare, or a URL that is not plain http(s), is declined without
    // ever reaching the handler: nothing else could open it safely.
    if (url ? !this.elicitUrl : !this.elicitForm) return { action: 'decline' };
    if (url && urlRefusal(params.url) !== undefined) return { action: 'decline' };
    const result: unknown = await this.elicitation(params, ctx);
    if (!isObject(result) || !ELICIT_ACTIONS.has(result.action)) {
      throw new LocalError(
        'InvalidResult',
        'The elicitation handler must return { action: "accept" | "decline" | "cancel" }',
      );
    }
    if (url) {
      // URL mode carries no content.
      const { content: _ignored, ...rest } = result;
      return rest;
    }
    return applyElicitationDefaults(params, result as never) as Record<string, unknown>;
  }

  /**
   * Legacy era: answers server-to-client requests through the session. The request's
   * signal fires when the server cancels it or the connection closes.
   */
  register(session: Session): void {
    for (const method of INPUT_METHODS) {
      // Without a handler the session answers "method not found", as the spec expects.
      if (!this.has(method)) continue;
      session.setRequestHandler(method, (params, rc) =>
        this.answer(method, params, {
          signal: rc.signal,
          era: rc.era,
          protocolVersion: rc.protocolVersion,
        }),
      );
    }
  }
}

function missing(method: string, option: string): LocalError {
  return new LocalError(
    'HandlerMissing',
    `The server asked for ${method}, but no handler is registered (set ${option} in the Client options)`,
  );
}
