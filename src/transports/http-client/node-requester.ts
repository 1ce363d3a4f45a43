/**
 * The Node binding of the client transports: `node:http` and `node:https` on keep-alive
 * agents. Node's `fetch` builds a web Request, Headers, Response and ReadableStream for
 * every call; this costs a fraction of that per request. Node only.
 */
import type http from 'node:http';
import type { ClientRequest, IncomingMessage } from 'node:http';
import type https from 'node:https';
import { LocalError } from '../../jsonrpc/index.js';
import { unsupportedScheme } from './requester.js';
import type { Cancel, HttpReply, HttpRequest, HttpRequester } from './requester.js';

export interface NodeRequesterOptions {
  /** The agent for `http:` URLs. Defaults to a shared keep-alive agent. */
  httpAgent?: http.Agent;
  /** The agent for `https:` URLs (custom CAs, client certificates). Defaults to a shared keep-alive agent. */
  httpsAgent?: https.Agent;
}

let sharedHttp: http.Agent | undefined;
let sharedHttps: https.Agent | undefined;

/**
 * `node:http` and `node:https`, loaded by the first request that needs each: importing the
 * transport costs neither (about 4 and 6 ms), and a program on plain HTTP never loads TLS.
 */
let httpModule: typeof http | undefined;
let httpsModule: typeof https | undefined;
const loadHttp = async (): Promise<typeof http> => (httpModule ??= (await import('node:http')).default);
const loadHttps = async (): Promise<typeof https> => (httpsModule ??= (await import('node:https')).default);

class NodeReply implements HttpReply {
  readonly status: number;
  readonly statusText: string;
  private taken = false;

  constructor(
    private readonly res: IncomingMessage,
    private readonly req: ClientRequest,
    private readonly cancel: Cancel,
  ) {
    this.status = res.statusCode ?? 0;
    this.statusText = res.statusMessage ?? '';
  }

  header(name: string): string | null {
    const v = this.res.headers[name];
    if (v === undefined) return null;
    return Array.isArray(v) ? v.join(', ') : v;
  }

  headers(): Headers {
    const out = new Headers();
    const raw = this.res.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      try {
        out.append(raw[i]!, raw[i + 1]!);
      } catch {
        // A header the web Headers refuses stays out of the error's copy.
      }
    }
    return out;
  }

  /** Runs `onData` for each chunk until the body ends, fails, or `onData` returns false. */
  private consume(onData: (chunk: Buffer | string) => boolean | void): Promise<void> {
    const res = this.res;
    if (this.taken) return Promise.reject(new LocalError('InvalidMessage', 'The body was read already'));
    this.taken = true;
    if (res.complete && res.readableEnded) return Promise.resolve();
    if (res.destroyed) {
      return Promise.reject(this.cancel.aborted ? this.cancel.reason : new Error('The response was cut off'));
    }
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const finish = (error?: unknown): void => {
        if (settled) return;
        settled = true;
        res.off('data', data);
        this.cancel.onAbort(undefined);
        if (error === undefined) resolve();
        else reject(error);
      };
      const data = (chunk: Buffer | string): void => {
        if (settled) return;
        if (onData(chunk) === false) {
          finish();
          this.req.destroy();
        }
      };
      res.on('data', data);
      res.once('end', () => finish());
      res.once('error', (e) => finish(this.cancel.aborted ? this.cancel.reason : e));
      res.once('close', () => {
        if (!res.complete) {
          finish(this.cancel.aborted ? this.cancel.reason : new Error('The response was cut off'));
        }
      });
    });
  }

  async bytes(max: number): Promise<Uint8Array> {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    await this.consume((chunk) => {
      const b = chunk as Buffer;
      size += b.length;
      if (size > max) return !(over = true);
      chunks.push(b);
    });
    if (over) throw new LocalError('MessageTooLarge', `The response body exceeded ${max} bytes`);
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
  }

  read(onText: (text: string) => boolean | void): Promise<void> {
    this.res.setEncoding('utf8');
    return this.consume((chunk) => onText(chunk as string));
  }

  discard(): void {
    if (this.taken) return;
    this.taken = true;
    this.cancel.onAbort(undefined);
    // A body already in (it came with the head) must still be read out, or Node never
    // hands the socket back to the agent.
    if (this.res.complete) {
      this.res.resume();
      return;
    }
    // A short body is read to its end so the socket goes back to the pool; a long or
    // endless one (an SSE stream) is cut.
    const length = Number(this.res.headers['content-length']);
    if (length >= 0 && length <= 64 * 1024) this.res.resume();
    else this.req.destroy();
  }
}

/**
 * The requester on `node:http`/`node:https` with keep-alive agents: the default of the
 * transports imported on Node (the `node` export condition of `mcpkit/http-client`).
 *
 * @example
 * ```ts
 * import { Agent } from 'node:https';
 * const requester = nodeRequester({ httpsAgent: new Agent({ keepAlive: true, ca }) });
 * const transport = new StreamableHttpClientTransport({ url, requester });
 * ```
 */
export function nodeRequester(options: NodeRequesterOptions = {}): HttpRequester {
  return (request: HttpRequest): Promise<HttpReply> => {
    const { url, cancel } = request;
    if (cancel.aborted) return Promise.reject(cancel.reason);
    const secure = url.protocol === 'https:';
    const refused = unsupportedScheme(url);
    if (refused) return Promise.reject(refused);
    const mod = secure ? httpsModule : httpModule;
    // After the first request of each scheme the module is at hand: no extra await per call.
    if (mod === undefined) {
      return (secure ? loadHttps() : loadHttp()).then(() => nodeRequester(options)(request));
    }
    const agent = secure
      ? (options.httpsAgent ?? (sharedHttps ??= new (mod as typeof https).Agent({ keepAlive: true })))
      : (options.httpAgent ?? (sharedHttp ??= new (mod as typeof http).Agent({ keepAlive: true })));
    return new Promise<HttpReply>((resolve, reject) => send(request, mod, agent, resolve, reject, true));
  };
}

function send(
  request: HttpRequest,
  mod: typeof http | typeof https,
  agent: http.Agent,
  resolve: (reply: HttpReply) => void,
  reject: (error: unknown) => void,
  mayRetry: boolean,
): void {
  const { url, cancel } = request;
  const req = mod.request(
    {
      protocol: url.protocol,
      hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port,
      path: url.pathname + url.search,
      method: request.method,
      headers: request.headers,
      agent,
    },
    (res) => resolve(new NodeReply(res, req, cancel)),
  );
  // Errors after the response head (a cut body) reach the reader through the response.
  req.on('error', (e: NodeJS.ErrnoException) => {
    if (cancel.aborted) return reject(cancel.reason);
    // A kept-alive socket the server closed just as this request went out: the server
    // never read the request, so it is sent again, once, on a fresh connection.
    if (mayRetry && req.reusedSocket && (e.code === 'ECONNRESET' || e.code === 'EPIPE')) {
      return send(request, mod, agent, resolve, reject, false);
    }
    reject(e);
  });
  // Destroyed without an error: whoever waits gets `cancel.reason` above and in the reply.
  // An error here would be emitted on the socket too, and when the abort comes from inside
  // the last 'data' of a response (a resumed stream whose result just arrived), Node has
  // already unhooked the socket's error listener: the AbortError became an uncaught exception.
  cancel.onAbort(() => req.destroy());
  req.end(request.body);
}
