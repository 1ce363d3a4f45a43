export { McpSessionObject } from './mcp-session-object.js';
export {
  DurableObjectEventStore,
  DurableObjectSessionStore,
  connectDurableObjectStores,
} from './durable-object-stores.js';
export { DurableObjectTaskStore } from './durable-object-task-store.js';
export type { DurableObjectTaskStoreOptions } from './durable-object-task-store.js';
export type { DurableObjectEventStoreOptions, DurableObjectStoresOptions } from './durable-object-stores.js';
export type {
  DurableObjectNamespaceLike,
  DurableObjectStateLike,
  DurableObjectStorageLike,
  DurableObjectStubLike,
} from './durable-object-types.js';
