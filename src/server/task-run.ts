/**
 * One task whose handler runs in this process. It is the handler's context host and input
 * asker at once (methods on a prototype, not closures per task), since a server may hold
 * thousands of live tasks and each one's footprint counts.
 */
import { LocalError } from '../jsonrpc/index.js';
import type { Params, RequestId } from '../jsonrpc/index.js';
import type { RequestContext } from '../session/index.js';
import type { ContextHost } from '../session/request-context.js';
import type { LogLevel } from '../session/logging-levels.js';
import type { InputRequest } from './mrtr.js';
import type { InputAsker } from './server-context.js';
import type { TaskEra } from './task-era.js';
import { MetaKey } from '../protocol/meta-keys.js';
import { isObject } from '../jsonrpc/is-object.js';

/** The bits of the originating session a task still uses after its request was answered. */
export interface OriginSession {
  readonly isOpen?: boolean;
  sendRaw(message: Record<string, unknown>): void;
}

/** What a task run asks of the runtime that owns it. */
export interface TaskRunOwner {
  askFor(run: TaskRun, request: InputRequest): Promise<Record<string, unknown>>;
  statusFor(run: TaskRun, message: string): void;
}

/** `params` with the related-task `_meta` of 2025-11-25 added. */
export function withRelatedTask(params: Params | undefined, taskId: string): Params {
  const meta = isObject(params?._meta) ? { ...params._meta } : {};
  meta[MetaKey.RelatedTask] = { taskId };
  return { ...params, _meta: meta };
}

const noop = (): void => undefined;

/** A live task of this process: its handler's request context, and how it reaches the client. */
export class TaskRun implements ContextHost, InputAsker {
  /** The task's request context (set right after construction: it needs this run as its host). */
  rc!: RequestContext;
  /** Stops watching the task's record. */
  unwatch: () => void = noop;
  /** Epoch ms at which the TTL runs out (Infinity for none). */
  deadline: number;
  nextKey = 1;
  lastStatus = 'working';
  /** What the runtime's task observer returned for this task, until it ends. */
  observed: unknown = undefined;
  /** The handler has settled and its outcome is being recorded. */
  finishing = false;

  constructor(
    readonly taskId: string,
    /** The task protocol it was created in. */
    readonly era: TaskEra,
    private readonly owner: TaskRunOwner,
    private readonly originHost: ContextHost,
    readonly origin: OriginSession | undefined,
    deadline: number,
  ) {
    this.deadline = deadline;
  }

  // ContextHost: progress and logs outlive the request that created the task.
  get legacyLogLevel(): LogLevel | undefined {
    return this.originHost.legacyLogLevel;
  }

  get capabilities(): Readonly<Record<string, unknown>> {
    return this.originHost.capabilities;
  }

  sendRelated(_id: RequestId, method: string, params: Params): void {
    // The extension carries no progress or log messages for tasks.
    if (!this.era.notifiesOrigin || !this.origin || this.origin.isOpen === false) return;
    this.origin.sendRaw({ jsonrpc: '2.0', method, params: withRelatedTask(params, this.taskId) });
  }

  requestOnBehalf(_ctx: RequestContext, method: string): Promise<Record<string, unknown>> {
    return Promise.reject(new LocalError('CapabilityNotSupported', `${method} is asked through the task`));
  }

  // InputAsker: questions become the task's input_required state.
  ask(request: InputRequest): Promise<Record<string, unknown>> {
    return this.owner.askFor(this, request);
  }

  status(message: string): void {
    this.owner.statusFor(this, message);
  }
}
