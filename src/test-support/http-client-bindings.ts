/**
 * Test-only: the HTTP bindings of the client transports, so that every transport test runs
 * on each: the portable one on `fetch`, Node's default on undici's dispatcher, and the
 * `node:http` requester.
 */
import * as portable from '../transports/http-client/index.js';
import * as node from '../transports/http-client/node.js';
import type {
  SseClientTransportOptions,
  StreamableHttpClientTransportOptions,
} from '../transports/http-client/index.js';

export interface Binding {
  name: string;
  StreamableHttpClientTransport: typeof portable.StreamableHttpClientTransport;
  SseClientTransport: typeof portable.SseClientTransport;
}

const onNodeHttp = node.nodeRequester();

class NodeHttpStreamable extends portable.StreamableHttpClientTransport {
  constructor(options: StreamableHttpClientTransportOptions) {
    super(options.fetch || options.requester ? options : { ...options, requester: onNodeHttp });
  }
}

class NodeHttpSse extends portable.SseClientTransport {
  constructor(options: SseClientTransportOptions) {
    super(options.fetch || options.requester ? options : { ...options, requester: onNodeHttp });
  }
}

export const bindings: readonly Binding[] = [
  {
    name: 'fetch',
    StreamableHttpClientTransport: portable.StreamableHttpClientTransport,
    SseClientTransport: portable.SseClientTransport,
  },
  {
    name: 'undici (the Node default)',
    StreamableHttpClientTransport: node.StreamableHttpClientTransport,
    SseClientTransport: node.SseClientTransport,
  },
  {
    name: 'node:http',
    StreamableHttpClientTransport: NodeHttpStreamable,
    SseClientTransport: NodeHttpSse,
  },
];
