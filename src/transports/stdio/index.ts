export { StdioServerTransport } from './stdio-server-transport.js';
export type { StdioServerTransportOptions } from './stdio-server-transport.js';
export { StdioClientTransport } from './stdio-client-transport.js';
export type { StdioClientTransportOptions } from './stdio-client-transport.js';
export { DEFAULT_MAX_MESSAGE_BYTES } from './frame-reader.js';
export { LineFramer } from './line-framer.js';
