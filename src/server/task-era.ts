/**
 * What the two task protocols do differently, as one object each: the 2025-11-25 tasks
 * (legacy: task augmentation, `tasks/result`, status notifications) and the tasks extension
 * (modern: the server decides, `tasks/get` inlines everything, `tasks/update` answers). The
 * task runtime asks these instead of comparing era names; a request's is
 * `serverEraOf(rc.era).tasks`, a running task's is the one it was created in.
 */
import { ErrorCode, WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import { Method, methodInRevision } from '../protocol/methods.js';
import type { Era } from '../protocol/versions.js';
import type { RequestContext } from '../session/index.js';
import { isObject } from '../jsonrpc/is-object.js';
import type { TaskRecord } from './task-store.js';
import {
  declaresTasksExtension,
  legacyTask,
  missingTasksExtension,
  modernTask,
  taskNotFound,
} from './task-wire.js';
import type { TaskSupport } from './task-wire.js';

/** A `tools/call` that becomes a task: the TTL its client asked for, if any. */
export interface TaskPlan {
  readonly ttl: number | undefined;
}

export interface TaskEra {
  /** The generation stored in each record it creates (`TaskRecord.generation`). */
  readonly name: Era;
  /**
   * Whether this `tools/call` of a tool with `support` runs as a task (`undefined`: a plain
   * call), throwing the errors the era's spec prescribes for a call the tool cannot take.
   */
  plan(toolName: string, support: TaskSupport, params: Params, rc: RequestContext): TaskPlan | undefined;
  /** The `tools/call` answer announcing a task. */
  created(record: TaskRecord): unknown;
  /**
   * A deferred handler that returned without starting its task still answers with one:
   * a 2025-11-25 task-augmented call always gets a task. The extension answers plainly.
   */
  readonly alwaysAnswersWithTask: boolean;
  /** A tool result with `isError` fails the task (2025-11-25); the extension completes it. */
  readonly toolErrorFails: boolean;
  /**
   * The connection that made the task hears of it: its progress and logs (with the
   * related-task `_meta`) and `notifications/tasks/status` (2025-11-25). The extension
   * carries none; its clients poll or listen.
   */
  readonly notifiesOrigin: boolean;
  /**
   * An unauthenticated task belongs to its MCP session (2025-11-25); in the extension it is
   * reached by its unguessable id alone.
   */
  readonly ownedBySession: boolean;
  /** Refuses the task methods to a caller the era does not serve them to. */
  checkCaller(rc: RequestContext): void;
  /** The `tasks/get` answer. */
  shown(record: TaskRecord): Record<string, unknown>;
  /** The `tasks/cancel` answer for a task already terminal (or throws the refusal). */
  cancelTerminal(record: TaskRecord): unknown;
  /** The `tasks/cancel` answer once cancelled (`after` is undefined when the task vanished meanwhile). */
  cancelled(taskId: string, after: TaskRecord | undefined): unknown;
}

/** 2025-11-25 tasks: the client asks for a task with `params.task`. */
export const legacyTasks: TaskEra = {
  name: 'legacy',
  plan(toolName, support, params, rc) {
    // Revisions without the task methods have no tasks: every tool is a plain call.
    if (!methodInRevision(Method['tasks/get'], rc.protocolVersion)) return undefined;
    const task = params.task;
    if (task === undefined || task === null) {
      if (support === 'required') {
        throw new WireError(
          ErrorCode.MethodNotFound,
          `Tool ${toolName} requires task augmentation: call it with params.task`,
        );
      }
      return undefined;
    }
    if (!isObject(task)) throw WireError.invalidParams('params.task must be an object');
    if (support === 'forbidden') {
      throw new WireError(
        ErrorCode.MethodNotFound,
        `Tool ${toolName} does not support task augmentation (execution.taskSupport is forbidden)`,
      );
    }
    if (task.ttl !== undefined && task.ttl !== null && typeof task.ttl !== 'number') {
      throw WireError.invalidParams('params.task.ttl must be a number of milliseconds');
    }
    return { ttl: task.ttl as number | undefined };
  },
  created: (record) => ({ task: legacyTask(record) }),
  alwaysAnswersWithTask: true,
  toolErrorFails: true,
  notifiesOrigin: true,
  ownedBySession: true,
  checkCaller: () => undefined,
  shown: legacyTask,
  cancelTerminal(record) {
    throw WireError.invalidParams(`Cannot cancel task: already in terminal status '${record.status}'`);
  },
  cancelled(taskId, after) {
    if (!after) throw taskNotFound(taskId);
    return legacyTask(after);
  },
};

const NO_TTL: TaskPlan = { ttl: undefined };

/** The tasks extension: the server decides, for clients that declared it on this request. */
export const modernTasks: TaskEra = {
  name: 'modern',
  plan(toolName, support, _params, rc) {
    if (support === 'forbidden') return undefined;
    if (!declaresTasksExtension(rc.peerCapabilities)) {
      if (support === 'required') throw missingTasksExtension(`Tool ${toolName}`);
      return undefined;
    }
    return NO_TTL;
  },
  created: (record) => ({ resultType: 'task', ...modernTask(record, false) }),
  alwaysAnswersWithTask: false,
  toolErrorFails: false,
  notifiesOrigin: false,
  ownedBySession: false,
  checkCaller(rc) {
    if (!declaresTasksExtension(rc.peerCapabilities)) throw missingTasksExtension(rc.method);
  },
  shown: (record) => modernTask(record, true),
  // The extension's cancel is an idempotent acknowledgement.
  cancelTerminal: () => ({}),
  cancelled: () => ({}),
};
