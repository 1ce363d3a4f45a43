export { PostMessageTransport } from './post-message-transport.js';
export type { MessageSource, PostMessageTransportOptions, PostTarget } from './post-message-transport.js';
