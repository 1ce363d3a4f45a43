/**
 * `mcpkit/http-client` as Node resolves it (the `node` export condition): the same
 * transports, making their requests on undici's dispatcher (keep-alive connection pools)
 * unless given a `fetch` or a `requester`. Node's `fetch` runs on the same engine but
 * costs several times more per request for its web objects.
 */
import { nonNodeRuntime } from './runtime.js';
import { undiciRequester } from './undici-requester.js';
import type { HttpRequester } from './requester.js';
import { SseClientTransport as PortableSseClientTransport } from './sse-client-transport.js';
import type { SseClientTransportOptions } from './sse-client-transport.js';
import { StreamableHttpClientTransport as PortableStreamableHttpClientTransport } from './streamable-http-client-transport.js';
import type { StreamableHttpClientTransportOptions } from './streamable-http-client-transport.js';

let defaultRequester: HttpRequester | undefined;

/**
 * On Bun and Deno, which may load this build in place of the portable one (it is the
 * `node` condition's), the default stays the portable one, their own `fetch`: Bun's
 * built-in `undici` cannot dispatch.
 */
const undiciByDefault = nonNodeRuntime() === undefined;

function withNodeDefault<T extends { fetch?: typeof fetch; requester?: HttpRequester }>(options: T): T {
  if (!undiciByDefault || options.fetch !== undefined || options.requester !== undefined) return options;
  return { ...options, requester: (defaultRequester ??= undiciRequester()) };
}

/**
 * The portable `StreamableHttpClientTransport` (the default export condition's), on undici's
 * dispatcher by default.
 *
 * @example
 * ```ts
 * import { StreamableHttpClientTransport } from 'mcpkit/http-client';
 * await client.connect(new StreamableHttpClientTransport({ url: 'http://127.0.0.1:3000/mcp' }));
 * ```
 */
export class StreamableHttpClientTransport extends PortableStreamableHttpClientTransport {
  constructor(options: StreamableHttpClientTransportOptions) {
    super(withNodeDefault(options));
  }
}

/**
 * The portable `SseClientTransport` (the default export condition's), on undici's dispatcher
 * by default.
 *
 * @example
 * ```ts
 * import { SseClientTransport } from 'mcpkit/http-client';
 * await client.connect(new SseClientTransport({ url: 'http://127.0.0.1:3000/sse' }));
 * ```
 */
export class SseClientTransport extends PortableSseClientTransport {
  constructor(options: SseClientTransportOptions) {
    super(withNodeDefault(options));
  }
}

export { undiciRequester } from './undici-requester.js';
export type { UndiciRequesterOptions } from './undici-requester.js';
export { nodeRequester } from './node-requester.js';
export type { NodeRequesterOptions } from './node-requester.js';
export type { StreamableHttpClientTransportOptions } from './streamable-http-client-transport.js';
export type { SseClientTransportOptions } from './sse-client-transport.js';
export { fetchRequester } from './http.js';
export type { HeadersOption } from './http.js';
export type { HttpReply, HttpRequest, HttpRequester, HeaderRecord, RequesterWrapper } from './requester.js';
export { Cancel } from './requester.js';
export { HttpError, SessionExpiredError, isSessionExpired } from './errors.js';
export type { ParamHeader } from './x-mcp-header.js';
