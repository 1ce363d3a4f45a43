/**
 * Test-only: real servers and small helpers for the tests of the requesters: the contract
 * every requester keeps (`requester-contract.test.ts`) and what is particular to each
 * (`node-requester.test.ts`, `undici-requester.test.ts`).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { TestContext } from 'node:test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalError } from '../jsonrpc/index.js';
import { Cancel } from '../transports/http-client/requester.js';
import type { HttpReply, HttpRequest, HttpRequester } from '../transports/http-client/requester.js';
import { WAIT_MS, settle, waitFor } from './waiting.js';

/** Every test fails rather than hangs if a promise never settles (generous: TLS setup is slow under load). */
export const limit = { timeout: 30_000 };

/** One request as the server saw it. */
export interface Hit {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Which server-side connection it came on (1, 2, ... in order of first use). */
  socket: number;
  /** Its place among the requests on that connection (1 for the first). */
  nth: number;
  /**
   * Set once the whole response was handed to the socket, or the connection closed: on
   * loopback the bytes are then with the client, whose next event-loop turns read them.
   */
  sent: boolean;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, hit: Hit) => void | Promise<void>;

export interface Served {
  url: URL;
  hits: Hit[];
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/** A real server on 127.0.0.1 (https when given a key and certificate) that logs every request. */
export async function serve(handler: Handler, tls?: { key: string; cert: string }): Promise<Served> {
  const hits: Hit[] = [];
  const ids = new WeakMap<Socket, { id: number; count: number }>();
  let connections = 0;
  let accepted = 0;
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let conn = ids.get(req.socket);
      if (conn === undefined) ids.set(req.socket, (conn = { id: ++connections, count: 0 }));
      const hit: Hit = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        socket: conn.id,
        nth: ++conn.count,
        sent: false,
      };
      const sent = (): void => void (hit.sent = true);
      res.on('finish', sent);
      res.on('close', sent);
      hits.push(hit);
      Promise.resolve(handler(req, res, hit)).catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(e));
      });
    });
  };
  const server = tls ? https.createServer(tls, listener) : http.createServer(listener);
  // 'connection' is the TCP connection for both (https emits it before the TLS handshake).
  server.on('connection', () => void accepted++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`${tls ? 'https' : 'http'}://127.0.0.1:${port}/`),
    hits,
    connections: () => accepted,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Waits until the response to the latest request was all sent (or cut) and the client has had
 * event-loop turns to take it in: a body that "arrived before the read", without a sleep.
 */
export async function lastResponseSent(server: Served): Promise<void> {
  await waitFor(() => server.hits.at(-1)?.sent, WAIT_MS, 'the response to be sent');
  await settle();
}

/** {@link serve}, closed when the test `t` ends. */
export async function served(
  t: TestContext,
  handler: Handler,
  tls?: { key: string; cert: string },
): Promise<Served> {
  const server = await serve(handler, tls);
  t.after(() => server.close());
  return server;
}

/**
 * A server-side promise and the function that settles it, for a handler that waits on the
 * client (or the client on the handler).
 */
export function latch(): { promise: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const promise = new Promise<void>((resolve) => (fire = resolve));
  return { promise, fire };
}

export function request(url: URL, path = '/', init: Partial<Omit<HttpRequest, 'url'>> = {}): HttpRequest {
  return { method: 'GET', headers: {}, cancel: new Cancel(), ...init, url: new URL(path, url) };
}

/** Writes a chunk and waits until it was handed to the socket. */
export function write(res: ServerResponse, chunk: string | Buffer): Promise<void> {
  return new Promise<void>((resolve) => res.write(chunk, () => resolve()));
}

export async function text(reply: HttpReply, max = 64 * 1024): Promise<string> {
  return new TextDecoder().decode(await reply.bytes(max));
}

/** Each request the server saw, as its path and the connection it came on. */
export const pathsAndSockets = (server: Served): [string, number][] =>
  server.hits.map((h) => [h.path, h.socket]);

/**
 * Requests `/a`, drops the reply unread, waits for `idle` (the connection back in the pool),
 * then does the same with `/b`; asserts that `/b` came on the connection of `/a`.
 */
export async function discardKeepsSocket(
  server: Served,
  requester: HttpRequester,
  idle: () => Promise<void>,
): Promise<void> {
  (await requester(request(server.url, '/a'))).discard();
  await idle();
  (await requester(request(server.url, '/b'))).discard();
  assert.deepEqual(
    pathsAndSockets(server),
    [
      ['/a', 1],
      ['/b', 1],
    ],
    'the second request came on a new connection: the first never went back to the pool',
  );
}

/** A rejection check: the error is the Cancel's reason, an `AbortError` by default. */
export const isAbort = (cancel: Cancel) => (e: unknown) => {
  assert.equal(e, cancel.reason);
  assert.equal((e as Error).name, 'AbortError');
  return true;
};

/** A rejection check: a `MessageTooLarge` LocalError. */
export const isTooLarge = (e: unknown) => {
  assert.ok(e instanceof LocalError, String(e));
  assert.equal(e.code, 'MessageTooLarge');
  return true;
};

function freeSockets(agent: http.Agent): number {
  return Object.values(agent.freeSockets).reduce((n, list) => n + (list?.length ?? 0), 0);
}

/** Waits (briefly) for `count` kept-alive sockets to go back to a `node:http` agent's pool. */
export async function pooled(agent: http.Agent, count = 1): Promise<void> {
  await waitFor(() => freeSockets(agent) >= count, 500, 'a free socket').catch(() => undefined);
}

/**
 * A throwaway self-signed certificate for 127.0.0.1 made with the `openssl` CLI, or
 * undefined when there is no `openssl`.
 */
export function selfSignedCert(): { key: string; cert: string } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-requester-'));
  try {
    const keyFile = join(dir, 'key.pem');
    const certFile = join(dir, 'cert.pem');
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          keyFile,
          '-out',
          certFile,
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
        ],
        { stdio: 'ignore' },
      );
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
    return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
