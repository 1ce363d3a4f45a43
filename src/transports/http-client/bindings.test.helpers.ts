/**
 * Test-only: the two HTTP bindings of the client transports, so that every transport test
 * runs on each: the portable one on `fetch`, and the Node one on `node:http` agents.
 */
import * as portable from './index.js';
import * as node from './node.js';

export interface Binding {
  name: string;
  StreamableHttpClientTransport: typeof portable.StreamableHttpClientTransport;
  SseClientTransport: typeof portable.SseClientTransport;
}

export const bindings: readonly Binding[] = [
  {
    name: 'fetch',
    StreamableHttpClientTransport: portable.StreamableHttpClientTransport,
    SseClientTransport: portable.SseClientTransport,
  },
  {
    name: 'node:http',
    StreamableHttpClientTransport: node.StreamableHttpClientTransport,
    SseClientTransport: node.SseClientTransport,
  },
];
