export { MemoryTransport, memoryPair } from './memory-transport.js';
