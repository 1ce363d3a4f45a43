import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import https from 'node:https';
import { LocalError } from '../../jsonrpc/index.js';
import { HttpError } from './errors.js';
import { nodeRequester } from './node-requester.js';
import { Cancel, requestSameOrigin } from './requester.js';
import { isAbort, request, selfSignedCert, serve, text, write } from './requester.test.helpers.js';
import { delay, waitFor } from './test-server.test.helpers.js';

function freeSockets(agent: http.Agent): number {
  return Object.values(agent.freeSockets).reduce((n, list) => n + (list?.length ?? 0), 0);
}

/** Waits (briefly) for a kept-alive socket to go back to the agent's pool. */
async function pooled(agent: http.Agent, count = 1): Promise<void> {
  await waitFor(() => freeSockets(agent) >= count, 500, 'a free socket').catch(() => undefined);
}

/** Every test fails rather than hangs if a promise never settles. */
const limit = { timeout: 5000 };

describe('nodeRequester', () => {
  test(
    'bytes() returns a body sent in several chunks whole; status, statusText and headers',
    limit,
    async () => {
      const server = await serve(async (_req, res, hit) => {
        const json = JSON.stringify({
          method: hit.method,
          path: hit.path,
          body: hit.body,
          x: hit.headers['x-req'],
        });
        res.setHeader('x-a', ['1', '2']);
        res.writeHead(201, 'Made Here', { 'content-type': 'application/json' });
        await write(res, json.slice(0, 10));
        await delay(20);
        await write(res, json.slice(10, 20));
        await delay(20);
        res.end(json.slice(20));
      });
      try {
        const body = JSON.stringify({ q: 'café €' });
        const reply = await nodeRequester()(
          request(server.url, '/rpc?x=1', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-req': 'yes' },
            body,
          }),
        );
        assert.equal(reply.status, 201);
        assert.equal(reply.statusText, 'Made Here');
        assert.equal(reply.header('content-type'), 'application/json');
        assert.equal(reply.header('x-a'), '1, 2');
        assert.equal(reply.header('x-missing'), null);
        const headers = reply.headers();
        assert.ok(headers instanceof Headers);
        assert.equal(headers.get('x-a'), '1, 2');
        assert.equal(headers.get('Content-Type'), 'application/json');
        assert.deepEqual(JSON.parse(await text(reply)), { method: 'POST', path: '/rpc?x=1', body, x: 'yes' });
        assert.equal(server.hits[0]!.headers['content-length'], String(Buffer.byteLength(body)));
      } finally {
        await server.close();
      }
    },
  );

  test(
    'bytes(max) past max rejects with MessageTooLarge; the server is still usable after',
    limit,
    async () => {
      const server = await serve(async (_req, res, hit) => {
        if (hit.path === '/small') return void res.end('small');
        res.writeHead(200, { 'content-length': '1000' });
        await write(res, 'x'.repeat(500));
        await delay(10);
        res.end('x'.repeat(500));
      });
      const agent = new http.Agent({ keepAlive: true });
      try {
        const requester = nodeRequester({ httpAgent: agent });
        const big = await requester(request(server.url, '/big'));
        await assert.rejects(big.bytes(999), (e: unknown) => {
          assert.ok(e instanceof LocalError);
          assert.equal(e.code, 'MessageTooLarge');
          return true;
        });
        const exact = await requester(request(server.url, '/big'));
        assert.equal((await exact.bytes(1000)).length, 1000);
        const small = await requester(request(server.url, '/small'));
        assert.equal(small.status, 200);
        assert.equal(await text(small), 'small');
      } finally {
        agent.destroy();
        await server.close();
      }
    },
  );

  test(
    'read(onText) streams text as it arrives, across a split UTF-8 character; false stops it',
    limit,
    async () => {
      let sawFirst!: () => void;
      const first = new Promise<void>((resolve) => (sawFirst = resolve));
      let serverClosed!: () => void;
      const closed = new Promise<void>((resolve) => (serverClosed = resolve));
      const server = await serve(async (_req, res) => {
        res.on('close', () => serverClosed());
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        await write(res, 'data: one\n\n');
        // The rest is written only once the client has read the first event: a reader that
        // waited for the end of the body would never get it.
        await first;
        const euro = Buffer.from('€', 'utf8');
        await write(res, Buffer.concat([Buffer.from('data: 5'), euro.subarray(0, 1)]));
        await delay(20);
        await write(res, Buffer.concat([euro.subarray(1), Buffer.from('\n\n')]));
        await delay(20);
        await write(res, 'data: stop\n\n');
        // The body never ends: the client stops reading.
      });
      try {
        const reply = await nodeRequester()(request(server.url, '/sse'));
        assert.equal(reply.header('content-type'), 'text/event-stream');
        const texts: string[] = [];
        await reply.read((t) => {
          texts.push(t);
          if (texts.join('').includes('data: one\n\n')) sawFirst();
          return !texts.join('').includes('data: stop\n\n');
        });
        assert.equal(texts.join(''), 'data: one\n\ndata: 5€\n\ndata: stop\n\n');
        assert.ok(texts.length >= 2, `arrived in ${texts.length} chunks`);
        assert.ok(texts.every((t) => !t.includes('\uFFFD')));
        // Stopping dropped the connection (the body was endless).
        await closed;
        await assert.rejects(
          reply.read(() => undefined),
          LocalError,
        );
      } finally {
        await server.close();
      }
    },
  );

  test(
    'cancel.abort() rejects a body read in progress, a request waiting for its head, and never sends an aborted one',
    limit,
    async () => {
      const server = await serve(async (_req, res, hit) => {
        if (hit.path === '/hang') return; // never answers
        if (hit.path === '/ok') return void res.end('ok');
        res.writeHead(200, { 'content-length': '100000' });
        await write(res, 'data: 1\n\n');
        // ...and the rest never comes.
      });
      try {
        const requester = nodeRequester();

        // read() in progress: aborted from inside onText.
        const c1 = new Cancel();
        const r1 = await requester({ ...request(server.url, '/stream'), cancel: c1 });
        await assert.rejects(
          r1.read(() => c1.abort()),
          isAbort(c1),
        );

        // bytes() in progress.
        const c2 = new Cancel();
        const r2 = await requester({ ...request(server.url, '/stream'), cancel: c2 });
        const reading = r2.bytes(1 << 20);
        await delay(20);
        c2.abort();
        await assert.rejects(reading, isAbort(c2));

        // Aborted between the head and the read of an unfinished body.
        const c3 = new Cancel();
        const r3 = await requester({ ...request(server.url, '/stream'), cancel: c3 });
        c3.abort();
        await assert.rejects(r3.bytes(1 << 20), isAbort(c3));

        // Before the response head: the request promise itself rejects.
        const c4 = new Cancel();
        const pending = requester({ ...request(server.url, '/hang'), cancel: c4 });
        await waitFor(() => server.hits.some((h) => h.path === '/hang'), 2000, 'the /hang request');
        c4.abort();
        await assert.rejects(pending, isAbort(c4));

        // With a reason of the caller's own.
        const c5 = new Cancel();
        const pending5 = requester({ ...request(server.url, '/hang'), cancel: c5 });
        await waitFor(
          () => server.hits.filter((h) => h.path === '/hang').length === 2,
          2000,
          'the second /hang',
        );
        const mine = new Error('mine');
        c5.abort(mine);
        await assert.rejects(pending5, (e: unknown) => e === mine);

        // Already aborted: rejects at once, without contacting the server.
        const before = server.hits.length;
        const c6 = new Cancel();
        c6.abort();
        await assert.rejects(requester({ ...request(server.url, '/ok'), cancel: c6 }), isAbort(c6));
        const after = await requester(request(server.url, '/ok'));
        assert.equal(await text(after), 'ok');
        assert.deepEqual(
          server.hits.slice(before).map((h) => h.path),
          ['/ok'],
        );
      } finally {
        await server.close();
      }
    },
  );

  test('a body the server cuts off rejects bytes() instead of hanging', { timeout: 3000 }, async () => {
    const server = await serve(async (_req, res, hit) => {
      if (hit.path === '/chunked') res.writeHead(200, { 'content-type': 'text/plain' });
      else res.writeHead(200, { 'content-length': '100' });
      await write(res, 'x'.repeat(10));
      await delay(hit.path === '/late' ? 0 : 30);
      res.socket?.destroy();
    });
    try {
      const requester = nodeRequester();
      // Cut while bytes() is waiting for the rest, with a content-length...
      const r1 = await requester(request(server.url, '/length'));
      await assert.rejects(r1.bytes(1000), Error);
      // ...and chunked.
      const r2 = await requester(request(server.url, '/chunked'));
      assert.equal(r2.header('transfer-encoding'), 'chunked');
      await assert.rejects(r2.bytes(1000), Error);
      // Cut before bytes() was called.
      const r3 = await requester(request(server.url, '/late'));
      await delay(50);
      await assert.rejects(r3.bytes(1000), Error);
      assert.equal(server.hits.length, 3);
    } finally {
      await server.close();
    }
  });

  test('discard() of a short body still arriving lets the keep-alive socket be reused', limit, async () => {
    const server = await serve(async (_req, res) => {
      res.writeHead(200, { 'content-length': '4' });
      await write(res, 'ab');
      await delay(20);
      res.end('cd');
    });
    const agent = new http.Agent({ keepAlive: true });
    try {
      const requester = nodeRequester({ httpAgent: agent });
      (await requester(request(server.url, '/a'))).discard();
      await pooled(agent);
      (await requester(request(server.url, '/b'))).discard();
      assert.deepEqual(
        server.hits.map((h) => [h.path, h.socket]),
        [
          ['/a', 1],
          ['/b', 1],
        ],
      );
    } finally {
      agent.destroy();
      await server.close();
    }
  });

  test(
    'discard() of a short body that came with the head lets the keep-alive socket be reused',
    limit,
    async () => {
      const server = await serve(
        (_req, res) =>
          void res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }).end('ok'),
      );
      const agent = new http.Agent({ keepAlive: true });
      try {
        const requester = nodeRequester({ httpAgent: agent });
        (await requester(request(server.url, '/a'))).discard();
        await pooled(agent);
        (await requester(request(server.url, '/b'))).discard();
        assert.equal(
          server.hits[1]!.socket,
          server.hits[0]!.socket,
          'the second request came on a new connection: the first socket never went back to the pool',
        );
      } finally {
        agent.destroy();
        await server.close();
      }
    },
  );

  test('discard() of an endless body cuts the connection', limit, async () => {
    let serverClosed!: () => void;
    const closed = new Promise<void>((resolve) => (serverClosed = resolve));
    const server = await serve(async (_req, res) => {
      res.on('close', () => serverClosed());
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      await write(res, ': open\n\n');
    });
    try {
      (await nodeRequester()(request(server.url, '/sse'))).discard();
      await closed;
    } finally {
      await server.close();
    }
  });

  test(
    'a kept-alive socket the server resets is retried once on a fresh connection; a fresh one is not',
    limit,
    async () => {
      const server = await serve((req, res, hit) => {
        // Resets every second request on a connection, and /reset always, without answering.
        if (hit.path === '/reset' || hit.nth === 2) return void req.socket.destroy();
        res.writeHead(200, { 'content-type': 'text/plain' }).end(`ok ${hit.body}`);
      });
      const agent = new http.Agent({ keepAlive: true });
      const fresh = new http.Agent({ keepAlive: true });
      try {
        const requester = nodeRequester({ httpAgent: agent });
        const post = (path: string, body: string) => request(server.url, path, { method: 'POST', body });
        const first = await requester(post('/', 'first'));
        assert.equal(await text(first), 'ok first');
        await pooled(agent);
        const second = await requester(post('/', 'second'));
        assert.equal(second.status, 200);
        assert.equal(await text(second), 'ok second');
        assert.deepEqual(
          server.hits.map((h) => [h.body, h.socket, h.nth]),
          [
            ['first', 1, 1],
            ['second', 1, 2],
            ['second', 2, 1],
          ],
        );

        await assert.rejects(nodeRequester({ httpAgent: fresh })(post('/reset', 'once')), (e: unknown) => {
          const err = e as NodeJS.ErrnoException;
          assert.ok(err.code === 'ECONNRESET' || /socket hang up/.test(err.message), String(e));
          return true;
        });
        assert.equal(server.hits.filter((h) => h.path === '/reset').length, 1);
      } finally {
        agent.destroy();
        fresh.destroy();
        await server.close();
      }
    },
  );

  test('https with a custom CA on the agent; without it the certificate is refused', limit, async (t) => {
    const tls = selfSignedCert();
    if (tls === undefined) return void t.skip('openssl not found');
    const server = await serve((_req, res) => void res.end('secure'), tls);
    const agent = new https.Agent({ keepAlive: true, ca: tls.cert });
    try {
      const reply = await nodeRequester({ httpsAgent: agent })(request(server.url, '/tls'));
      assert.equal(reply.status, 200);
      assert.equal(await text(reply), 'secure');

      await assert.rejects(nodeRequester()(request(server.url, '/tls')), (e: unknown) => {
        const code = String((e as NodeJS.ErrnoException).code);
        assert.match(code, /CERT/, String(e));
        return true;
      });
      assert.equal(server.hits.length, 1);
    } finally {
      agent.destroy();
      await server.close();
    }
  });

  test('a URL that is neither http: nor https: rejects with a LocalError', limit, async () => {
    await assert.rejects(nodeRequester()(request(new URL('ftp://127.0.0.1/'))), LocalError);
  });

  test(
    'requestSameOrigin follows a same-origin 307 with the body and refuses another origin',
    limit,
    async () => {
      const other = await serve((_req, res) => void res.end('elsewhere'));
      const server = await serve((_req, res, hit) => {
        if (hit.path === '/old') return void res.writeHead(307, { location: '/new' }).end('moved');
        if (hit.path === '/away') return void res.writeHead(307, { location: `${other.url.origin}/x` }).end();
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ method: hit.method, path: hit.path, body: hit.body }));
      });
      const agent = new http.Agent({ keepAlive: true });
      try {
        const requester = nodeRequester({ httpAgent: agent });
        const body = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
        const post = (path: string) =>
          request(server.url, path, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          });
        const reply = await requestSameOrigin(requester, post('/old'));
        assert.equal(reply.status, 200);
        assert.deepEqual(JSON.parse(await text(reply)), { method: 'POST', path: '/new', body });
        assert.deepEqual(
          server.hits.map((h) => [h.path, h.body]),
          [
            ['/old', body],
            ['/new', body],
          ],
        );

        await assert.rejects(requestSameOrigin(requester, post('/away')), (e: unknown) => {
          assert.ok(e instanceof HttpError, String(e));
          assert.equal(e.status, 307);
          return true;
        });
        assert.equal(other.hits.length, 0);
      } finally {
        agent.destroy();
        await server.close();
        await other.close();
      }
    },
  );
});
