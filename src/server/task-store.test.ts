/** The in-memory task store against the contract every TaskStore must meet. */
import { taskStoreContract } from '../test-support/task-store-contract.js';
import { InMemoryTaskStore } from './task-store.js';

taskStoreContract('InMemoryTaskStore', () => new InMemoryTaskStore());
