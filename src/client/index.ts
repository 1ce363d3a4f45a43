/**
 * `mcpkit/client`: the client's names beyond the root's (`Client` and its options are
 * `mcpkit`'s): subscriptions, the result cache, tasks, skills and the handler types.
 *
 * @packageDocumentation
 */
export type {
  ElicitationConfig,
  ElicitationHandler,
  EraPreference,
  HandlerContext,
  ResubscribeOptions,
  RootsHandler,
  SamplingConfig,
  SamplingHandler,
  ServerNotification,
  SubscribeOptions,
} from './types.js';
export { Subscription } from './subscription.js';
export type { ClientInterceptContext, ClientInterceptor, ClientRequest } from './interceptors.js';
export { headers } from './headers-interceptor.js';
export type { RequestHeaders } from './headers-interceptor.js';
export { logging } from './logging-interceptor.js';
export type { RequestLogEntry } from './logging-interceptor.js';
export { isRetryableFailure, retry } from './retry-interceptor.js';
export type { RetryOptions } from './retry-interceptor.js';
export { invokeInterceptor, listInterceptors } from './interceptor-calls.js';

export { ResultCache } from './result-cache.js';
export type { CachePartition, ResultCacheOptions } from './result-cache.js';
export { DEFAULT_PROBE_TIMEOUT_MS } from './era-selection.js';
export { DEFAULT_MAX_INPUT_ROUNDS } from './mrtr.js';
export { MAX_PAGES } from './list-iterators.js';
export { getSkill, listSkills, loadSkill } from './skills.js';
export type { LoadedSkill, SkillEntry, SkillResource } from './skills.js';
export { TaskClient, TaskHandle } from './tasks.js';
export type { TaskInfo, TaskWaitOptions } from './tasks.js';
export type { TaskRequestOptions } from './task-receiver.js';
