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
export { fetchServerCard, SERVER_CARD_SCHEMA, serverCardProblem, serverCardUrl } from './server-card.js';
export type { FetchServerCardOptions, ServerCard, ServerCardRemote } from './server-card.js';
export { SkillApprovals, skillFileSet } from './skill-approvals.js';
export type { SkillApprovalStatus } from './skill-approvals.js';
export { SKILL_LIMITS } from './skill-entry.js';
export type { SkillEntry, SkillResource } from './skill-entry.js';
export { parseFrontmatter } from './skill-frontmatter.js';
export { getSkill, listSkills, loadSkill, readSkillDirectory } from './skills.js';
export type { LoadSkillOptions, LoadedSkill } from './skills.js';
export { TaskClient, TaskHandle } from './tasks.js';
export type { TaskInfo, TaskWaitOptions } from './tasks.js';
export type { TaskRequestOptions } from './task-receiver.js';
