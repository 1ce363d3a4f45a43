// The serve layer: composition above the transports and the stores (Node).
export { serve } from './serve.js';
export type { RunningServer, ServeOptions } from './serve.js';
export { createNodeListener } from './node-listener.js';
export type { NodeAuthenticator } from './node-listener.js';
