/**
 * What bad input gets, each over a real socket: malformed bodies, wrong media types and
 * methods, oversized and slow uploads, forged and borrowed session ids, DNS rebinding.
 * No attack may crash the server or leave an unhandled rejection behind.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createEverythingServer } from '../../demo/everything-server.js';
import { nodeListener } from '../../serve/index.js';
import {
  LEGACY,
  POST_HEADERS,
  errorCode,
  initializeRequest,
  modern,
  openLegacySession,
  postJson,
  request,
  rpc,
  startEverything,
} from '../../test-support/http-server-harness.js';
import type { Fixture } from '../../test-support/http-server-harness.js';
import { WAIT_MS, settle, waitFor } from '../../test-support/waiting.js';

const rejections: unknown[] = [];
const onRejection = (e: unknown): void => void rejections.push(e);
process.on('unhandledRejection', onRejection);

let f: Fixture;
before(async () => {
  f = await startEverything({ maxBodyBytes: 1 << 20, requestTimeoutMs: 1000 });
});
after(async () => {
  // The server still serves after everything thrown at it.
  assert.equal((await postJson(f.url, initializeRequest())).status, 200);
  await f.close();
  await settle(); // a rejection already queued is reported by now
  process.off('unhandledRejection', onRejection);
  assert.deepEqual(rejections, [], 'no unhandled rejection');
});

const HEAD = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: ${POST_HEADERS.accept}\r\n`;

interface RawOutcome {
  /** What the server sent back. */
  reply: string;
  /** Body bytes written before the connection closed. */
  sent: number;
  ms: number;
}

/**
 * Writes `head` on a raw socket, then up to `bytes` of body (chunked or not) as fast as the
 * socket drains, or one byte every `dripMs`; resolves when the server closes or ends its side.
 */
function rawUpload(
  port: number,
  head: string,
  body: { bytes?: number; chunked?: boolean; dripMs?: number; dripText?: string; ignoreEnd?: boolean },
): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const started = Date.now();
    let reply = '';
    let sent = 0;
    let timer: ReturnType<typeof setInterval> | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (reply += d.slice(0, 2000)));
    socket.on('error', () => undefined);
    // The server's FIN: its answer is complete, so stop sending, as an HTTP client would.
    if (!body.ignoreEnd) socket.on('end', () => socket.destroy());
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ reply, sent, ms: Date.now() - started });
    });
    socket.write(head);
    if (body.dripMs !== undefined) {
      const text = body.dripText ?? 'x';
      timer = setInterval(() => {
        // Give up after 5 s: a server that has not hung up by then fails the test.
        if (Date.now() - started > 5000) socket.destroy();
        else if (socket.writable) socket.write(text[sent++ % text.length]!);
      }, body.dripMs);
      return;
    }
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const framed = Buffer.concat([
      Buffer.from(`${chunk.length.toString(16)}\r\n`),
      chunk,
      Buffer.from('\r\n'),
    ]);
    const total = body.bytes ?? 0;
    const pump = (): void => {
      while (sent < total && socket.writable) {
        sent += chunk.length;
        if (!socket.write(body.chunked ? framed : chunk)) return void socket.once('drain', pump);
      }
      if (body.chunked && socket.writable) socket.write('0\r\n\r\n');
    };
    pump();
  });
}

const statusOf = (reply: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1] ?? 0);

describe('malformed requests', () => {
  test('malformed JSON → 400 -32700, with or without a session', async () => {
    const sid = await openLegacySession(f.url);
    for (const body of ['{"jsonrpc":', '{', 'nul', '\u0000', '[{"jsonrpc":"2.0",']) {
      for (const headers of [{}, { 'mcp-session-id': sid }] as Array<Record<string, string>>) {
        const r = await postJson(f.url, body, headers);
        assert.equal(r.status, 400, body);
        assert.equal(errorCode(r), -32700, body);
        assert.equal(r.json?.id, null);
      }
    }
    const bad = await request(f.url, { headers: { ...POST_HEADERS }, body: undefined });
    assert.equal(bad.status, 400, 'an empty body');
  });

  test('invalid UTF-8 → 400 -32700', async () => {
    const r = await new Promise<number>((resolve, reject) => {
      const req = http.request(f.url, { method: 'POST', headers: POST_HEADERS, agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    });
    assert.equal(r, 400);
  });

  test('a batch in 2025-11-25 → refused with -32600', async () => {
    const sid = await openLegacySession(f.url);
    const r = await postJson(f.url, [rpc('tools/list'), rpc('ping')], {
      'mcp-session-id': sid,
      'mcp-protocol-version': LEGACY,
    });
    assert.equal(r.status, 400);
    assert.equal(errorCode(r), -32600);
  });

  test('wrong Content-Type → 415; wrong Accept → 406; PUT → 405', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']) {
      const r = await request(f.url, {
        headers: { ...POST_HEADERS, 'content-type': type },
        body: JSON.stringify(initializeRequest()),
      });
      assert.equal(r.status, 415, type);
    }
    const none = await request(f.url, {
      headers: { accept: POST_HEADERS.accept! },
      body: JSON.stringify(initializeRequest()),
    });
    assert.equal(none.status, 415, 'no Content-Type');
    for (const accept of ['application/json', 'text/event-stream', 'text/html']) {
      const r = await postJson(f.url, initializeRequest(), { accept });
      assert.equal(r.status, 406, accept);
    }
    for (const method of ['PUT', 'PATCH']) {
      const r = await request(f.url, { method, headers: POST_HEADERS, body: '{}' });
      assert.equal(r.status, 405, method);
      assert.equal(r.headers.allow, 'GET, POST, DELETE');
    }
  });
});

describe('oversized and slow bodies', () => {
  test('an honest Content-Length over the limit → 413 at once, without reading the body', async () => {
    const r = await rawUpload(f.running.port, `${HEAD}Content-Length: ${50 << 20}\r\n\r\n`, {
      bytes: 50 << 20,
    });
    assert.equal(statusOf(r.reply), 413);
    assert.match(r.reply, /connection: close/i);
    assert.ok(r.sent < 20 << 20, `the server hung up early (${r.sent} bytes sent)`);
  });

  test('50 MB chunked, again and again, against a 1 MiB limit: 413 each time, memory stays flat', async () => {
    const memory = (): number => {
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers;
    };
    await rawUpload(f.running.port, `${HEAD}Transfer-Encoding: chunked\r\n\r\n`, {
      bytes: 4 << 20,
      chunked: true,
    });
    const start = memory();
    for (let i = 0; i < 5; i++) {
      const r = await rawUpload(f.running.port, `${HEAD}Transfer-Encoding: chunked\r\n\r\n`, {
        bytes: 50 << 20,
        chunked: true,
      });
      assert.equal(statusOf(r.reply), 413, `upload ${i}`);
      assert.ok(r.sent < 20 << 20, `upload ${i}: the server hung up early (${r.sent} bytes sent)`);
    }
    const growth = memory() - start;
    assert.ok(growth < 16 << 20, `memory grew by ${(growth / 2 ** 20).toFixed(1)} MiB`);
  });

  test('a client that ignores the answer and keeps sending is cut off; it still read its 413', async () => {
    // It never stops on the server's FIN: the server stops reading, so its memory stays
    // flat, and destroys the connection after a linger of seconds rather than hold it for
    // ever. Its own server, whose request timeout (a minute) is not what cuts it.
    const g = await startEverything({ maxBodyBytes: 1 << 20, requestTimeoutMs: 60_000 });
    try {
      const r = await rawUpload(g.running.port, `${HEAD}Transfer-Encoding: chunked\r\n\r\n`, {
        bytes: 200 << 20,
        chunked: true,
        ignoreEnd: true,
      });
      assert.equal(statusOf(r.reply), 413);
      assert.ok(r.sent < 40 << 20, `${r.sent} bytes sent`);
      assert.ok(r.ms < 30_000, `held for ${r.ms} ms`);
    } finally {
      await g.close();
    }
  });

  test('a slow-drip body or header is cut off by the request timeout; others are served meanwhile', async () => {
    // Its own server, with a request timeout far longer than the other clients need, so that
    // "served meanwhile" is an order of events (answered while both drips are held open),
    // not a latency bound a loaded machine could miss.
    const g = await startEverything({ maxBodyBytes: 1 << 20, requestTimeoutMs: 3000 });
    try {
      const open = { body: true, headers: true };
      const dripBody = rawUpload(g.running.port, `${HEAD}Content-Length: 1000\r\n\r\n`, { dripMs: 200 }).then(
        (r) => ((open.body = false), r),
      );
      const dripHeaders = rawUpload(g.running.port, 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n', {
        dripMs: 200,
        dripText: 'X-Slow: y\r\n',
      }).then((r) => ((open.headers = false), r));
      const connections = (): Promise<number> =>
        new Promise((resolve) => g.running.httpServer.getConnections((_, n) => resolve(n)));
      await waitFor(async () => (await connections()) >= 2, WAIT_MS, 'both drips connected');
      const statuses = await Promise.all(
        Array.from({ length: 8 }, async (_, i) => {
          const m = modern('tools/call', { name: 'add', arguments: { a: i, b: 1 } });
          return (await postJson(g.url, m.body, m.headers)).status;
        }),
      );
      assert.deepEqual(statuses, Array(8).fill(200));
      assert.deepEqual(
        open,
        { body: true, headers: true },
        'the others were answered while both drips were held',
      );
      for (const [what, r] of [
        ['body', await dripBody],
        ['headers', await dripHeaders],
      ] as const) {
        // Cut by the timeout (3 s, checked every second), not by the drip's own end (200 s).
        assert.ok(r.ms >= 2900 && r.ms < 30_000, `${what}: cut after ${r.ms} ms`);
        assert.ok([0, 408].includes(statusOf(r.reply)), `${what}: ${r.reply.slice(0, 40)}`);
      }
    } finally {
      await g.close();
    }
  });
});

describe('sessions and principals', () => {
  test("a forged session id and another principal's session id get the same 404", async () => {
    const server = createEverythingServer();
    const { listener, handler } = nodeListener(server, {
      authenticate: (req) => ({ subject: String(req.headers['x-user'] ?? 'anonymous') }),
    });
    const httpServer = http.createServer(listener);
    await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
    try {
      const init = await postJson(url, initializeRequest(), { 'x-user': 'alice' });
      const sid = String(init.headers['mcp-session-id']);
      const as = (user: string, id: string) => ({
        'x-user': user,
        'mcp-session-id': id,
        'mcp-protocol-version': LEGACY,
      });
      const answers = [];
      for (const [user, id] of [
        ['bob', sid],
        ['bob', 'f'.repeat(32)],
        ['alice', 'f'.repeat(32)],
        ['bob', sid.toUpperCase()],
        ['bob', 'x'.repeat(200)],
      ] as const) {
        const post = await postJson(url, rpc('ping', undefined, 1), as(user, id));
        const get = await request(url, {
          method: 'GET',
          headers: { accept: 'text/event-stream', ...as(user, id) },
        });
        const del = await request(url, { method: 'DELETE', headers: as(user, id) });
        answers.push(
          [post, get, del].map((r) => ({ status: r.status, type: r.headers['content-type'], body: r.body })),
        );
      }
      for (const a of answers) assert.deepEqual(a, answers[0]);
      assert.equal(answers[0]![0]!.status, 404);
      // Bob's DELETE did not end Alice's session.
      assert.equal((await postJson(url, rpc('ping'), as('alice', sid))).status, 200);
      assert.equal(handler.sessionCount, 1);
    } finally {
      await handler.close();
      httpServer.closeAllConnections();
      await new Promise<void>((r) => httpServer.close(() => r()));
      await server.close();
    }
  });
});

describe('DNS rebinding', () => {
  const hostOf = () => `127.0.0.1:${f.running.port}`;
  const tryInit = (headers: Record<string, string>) =>
    request(f.url, { headers: { ...POST_HEADERS, ...headers }, body: JSON.stringify(initializeRequest()) });

  test('a bad Host or Origin → 403; loopback names and [::1] are accepted', async () => {
    const port = f.running.port;
    for (const headers of [
      { host: 'evil.example.com' },
      { host: `evil.example.com:${port}` },
      { host: hostOf(), origin: 'http://evil.example.com' },
      { host: hostOf(), origin: `http://evil.example.com:${port}` },
      { host: hostOf(), origin: 'null' },
      { host: hostOf(), origin: 'file://' },
      { host: 'localhost.evil.example.com' },
      { host: '127.0.0.1.nip.io' },
    ] as Array<Record<string, string>>) {
      const r = await tryInit(headers);
      assert.equal(r.status, 403, JSON.stringify(headers));
      assert.equal(r.headers['mcp-session-id'], undefined);
    }
    for (const headers of [
      { host: hostOf() },
      { host: `localhost:${port}`, origin: `http://localhost:${port}` },
      { host: `LOCALHOST:${port}`, origin: `http://127.0.0.1:${port}` },
      { host: `[::1]:${port}`, origin: `http://[::1]:${port}` },
      { host: '[::1]' },
    ] as Array<Record<string, string>>) {
      const r = await tryInit(headers);
      assert.equal(r.status, 200, JSON.stringify(headers));
    }
    // GET, DELETE and the legacy /sse endpoint are guarded too.
    for (const [method, path] of [
      ['GET', '/mcp'],
      ['DELETE', '/mcp'],
      ['GET', '/sse'],
    ]) {
      const r = await request(`${f.origin}${path}`, {
        method,
        headers: { host: 'evil.example.com', accept: 'text/event-stream' },
      });
      assert.equal(r.status, 403, `${method} ${path}`);
    }
  });

  test('an empty allowlist (allowedHosts: []) blocks everything', async () => {
    const g = await startEverything({ allowedHosts: [] });
    try {
      for (const host of [`127.0.0.1:${g.running.port}`, 'localhost', '[::1]']) {
        const r = await request(g.url, {
          headers: { ...POST_HEADERS, host },
          body: JSON.stringify(initializeRequest()),
        });
        assert.equal(r.status, 403, host);
      }
    } finally {
      await g.close();
    }
  });
});
