import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from 'undici';
import { LocalError } from '../../jsonrpc/index.js';
import { HttpError } from './errors.js';
import { Cancel, requestSameOrigin } from './requester.js';
import { isAbort, request, selfSignedCert, serve, text, write } from './requester.test.helpers.js';
import { undiciRequester } from './undici-requester.js';
import { delay, waitFor } from './test-server.test.helpers.js';

/** Every test fails rather than hangs if a promise never settles. */
const limit = { timeout: 5000 };

/** `size` bytes of a pattern that shows any lost, repeated or reordered chunk. */
function pattern(size: number): Buffer {
  const out = Buffer.alloc(size);
  for (let i = 0; i + 4 <= size; i += 4) out.writeUInt32BE(i >>> 2, i);
  return out;
}

/** Rejects if `promise` is still pending after `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} still pending after ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * Lets one turn of the event loop pass. undici hands a kept-alive connection back to its
 * pool only a `setImmediate` after a response completed (to catch servers that close it
 * anyway), so a request made straight after the previous body ended goes to a second
 * connection; after a turn, it reuses the first.
 */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const isTooLarge = (e: unknown) => {
  assert.ok(e instanceof LocalError, String(e));
  assert.equal(e.code, 'MessageTooLarge');
  return true;
};

describe('undiciRequester', () => {
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
      const agent = new Agent();
      try {
        const body = JSON.stringify({ q: 'café €' });
        const reply = await undiciRequester({ dispatcher: agent })(
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
        assert.equal(server.hits[0]!.headers['x-req'], 'yes');
      } finally {
        await server.close();
        await agent.close();
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
      const agent = new Agent();
      try {
        const requester = undiciRequester({ dispatcher: agent });
        // Over the limit while bytes() waits for the rest...
        const big = await requester(request(server.url, '/big'));
        await assert.rejects(big.bytes(999), isTooLarge);
        // ...and in a body that arrived before bytes() was called.
        const early = await requester(request(server.url, '/big'));
        await delay(50);
        await assert.rejects(early.bytes(999), isTooLarge);
        const exact = await requester(request(server.url, '/big'));
        assert.equal((await exact.bytes(1000)).length, 1000);
        const small = await requester(request(server.url, '/small'));
        assert.equal(small.status, 200);
        assert.equal(await text(small), 'small');
      } finally {
        await server.close();
        await agent.close();
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
      const agent = new Agent();
      try {
        const reply = await undiciRequester({ dispatcher: agent })(request(server.url, '/sse'));
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
        await agent.close();
      }
    },
  );

  test(
    'a body that arrived before read() or bytes() is delivered whole, past the 1 MiB unread limit too',
    limit,
    async () => {
      const large = pattern(3 * 1024 * 1024 + 5);
      const largeText = 'a€'.repeat(600_000); // 2.4 MB, with characters split across chunks
      const server = await serve((_req, res, hit) => {
        if (hit.path === '/chunked') {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.write('chunked ');
          res.end('body €');
          return;
        }
        if (hit.path === '/large') return void res.writeHead(200).end(large);
        if (hit.path === '/large-text') return void res.writeHead(200).end(largeText);
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '9' }).end('whole €');
      });
      const agent = new Agent();
      try {
        const requester = undiciRequester({ dispatcher: agent });

        const r1 = await requester(request(server.url, '/length'));
        await delay(50);
        assert.equal(await text(r1), 'whole €');

        const r2 = await requester(request(server.url, '/chunked'));
        await delay(50);
        assert.equal(r2.header('transfer-encoding'), 'chunked');
        const texts: string[] = [];
        await r2.read((t) => void texts.push(t));
        assert.equal(texts.join(''), 'chunked body €');

        // More than the requester buffers unread: the socket is paused until a reader comes.
        const r3 = await requester(request(server.url, '/large'));
        await delay(200);
        const got = await r3.bytes(8 * 1024 * 1024);
        assert.equal(got.length, large.length);
        assert.ok(Buffer.from(got).equals(large), 'the large body came back altered');

        // The same through read().
        const r4 = await requester(request(server.url, '/large-text'));
        await delay(200);
        const parts: string[] = [];
        await r4.read((t) => void parts.push(t));
        assert.ok(parts.join('') === largeText, 'the large text came back altered');

        // A reader that stops at its first chunk of a paused body: the rest is dropped.
        const r6 = await requester(request(server.url, '/large-text'));
        await delay(100);
        let calls = 0;
        await r6.read(() => (calls++, false));
        assert.equal(calls, 1);

        // Paused, then dropped unread: the next request still works.
        const r5 = await requester(request(server.url, '/large'));
        await delay(100);
        r5.discard();
        assert.equal(await text(await requester(request(server.url, '/length'))), 'whole €');
      } finally {
        await server.close();
        await agent.close();
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
      const agent = new Agent();
      try {
        const requester = undiciRequester({ dispatcher: agent });

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
        await agent.close();
      }
    },
  );

  test('cancel.abort() of a request still queued for a connection rejects at once', limit, async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const server = await serve(async (_req, res, hit) => {
      if (hit.path === '/slow') await released;
      res.end(hit.path);
    });
    // One connection: the second request waits in undici's queue, not yet connected.
    const agent = new Agent({ connections: 1 });
    try {
      const requester = undiciRequester({ dispatcher: agent });
      const slow = requester(request(server.url, '/slow'));
      slow.catch(() => undefined); // awaited below; no unhandled rejection if the test fails first
      await waitFor(() => server.hits.length === 1, 2000, 'the /slow request');
      const cancel = new Cancel();
      const queued = requester({ ...request(server.url, '/queued'), cancel });
      await delay(20);
      cancel.abort();
      await within(assert.rejects(queued, isAbort(cancel)), 1000, 'the aborted request queued behind /slow');
      release();
      assert.equal(await text(await slow), '/slow');
      assert.equal(await text(await requester(request(server.url, '/next'))), '/next');
      assert.deepEqual(
        server.hits.map((h) => h.path),
        ['/slow', '/next'],
      );
    } finally {
      release();
      await server.close();
      await agent.close();
    }
  });

  test(
    'a body the server cuts off rejects bytes() and read() instead of hanging',
    { timeout: 3000 },
    async () => {
      const server = await serve(async (_req, res, hit) => {
        if (hit.path === '/chunked') res.writeHead(200, { 'content-type': 'text/plain' });
        else res.writeHead(200, { 'content-length': '100' });
        await write(res, 'x'.repeat(10));
        await delay(hit.path === '/late' ? 0 : 30);
        res.socket?.destroy();
      });
      const agent = new Agent();
      try {
        const requester = undiciRequester({ dispatcher: agent });
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
        // read() gets what came, then the failure.
        const r4 = await requester(request(server.url, '/length'));
        const texts: string[] = [];
        await assert.rejects(
          r4.read((t) => void texts.push(t)),
          Error,
        );
        assert.equal(texts.join(''), 'x'.repeat(10));
        assert.equal(server.hits.length, 4);
      } finally {
        await server.close();
        await agent.close();
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
    const agent = new Agent();
    try {
      (await undiciRequester({ dispatcher: agent })(request(server.url, '/sse'))).discard();
      await closed;
    } finally {
      await server.close();
      await agent.close();
    }
  });

  test('discard() of a short body that came with the head keeps the connection', limit, async () => {
    const server = await serve(
      (_req, res) =>
        void res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }).end('ok'),
    );
    const agent = new Agent();
    try {
      const requester = undiciRequester({ dispatcher: agent });
      (await requester(request(server.url, '/a'))).discard();
      await turn();
      (await requester(request(server.url, '/b'))).discard();
      assert.deepEqual(
        server.hits.map((h) => [h.path, h.socket]),
        [
          ['/a', 1],
          ['/b', 1],
        ],
      );
    } finally {
      await server.close();
      await agent.close();
    }
  });

  test('sequential requests on one dispatcher reuse the kept-alive connection', limit, async () => {
    const server = await serve((_req, res, hit) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`${hit.method} ${hit.body}`);
    });
    const agent = new Agent();
    try {
      const requester = undiciRequester({ dispatcher: agent });
      assert.equal(await text(await requester(request(server.url, '/1'))), 'GET ');
      await turn();
      const post = request(server.url, '/2', { method: 'POST', body: 'two' });
      assert.equal(await text(await requester(post)), 'POST two');
      await turn();
      const texts: string[] = [];
      await (await requester(request(server.url, '/3'))).read((t) => void texts.push(t));
      assert.equal(texts.join(''), 'GET ');
      await turn();
      assert.equal(await text(await requester(request(server.url, '/4', { method: 'DELETE' }))), 'DELETE ');
      assert.deepEqual(
        server.hits.map((h) => [h.path, h.socket, h.nth]),
        [
          ['/1', 1, 1],
          ['/2', 1, 2],
          ['/3', 1, 3],
          ['/4', 1, 4],
        ],
      );
      assert.equal(server.connections(), 1);

      // Back to back, without a turn between: undici takes a second connection while the
      // first is not yet back in the pool, then alternates; never more than two.
      for (let i = 5; i <= 10; i++) {
        assert.equal(await text(await requester(request(server.url, `/${i}`))), 'GET ');
      }
      assert.ok(server.connections() <= 2, `${server.connections()} connections for 10 requests`);
      assert.equal(server.hits.length, 10);
    } finally {
      await server.close();
      await agent.close();
    }
  });

  test('without options: works, and two requesters share the connections', limit, async () => {
    const server = await serve((_req, res, hit) => void res.end(`hello ${hit.path}`));
    try {
      const a = undiciRequester();
      const b = undiciRequester();
      assert.equal(await text(await a(request(server.url, '/a'))), 'hello /a');
      await turn();
      assert.equal(await text(await b(request(server.url, '/b'))), 'hello /b');
      await turn();
      assert.equal(await text(await a(request(server.url, '/c'))), 'hello /c');
      assert.deepEqual(
        server.hits.map((h) => [h.path, h.socket]),
        [
          ['/a', 1],
          ['/b', 1],
          ['/c', 1],
        ],
      );
      assert.equal(server.connections(), 1);
    } finally {
      await server.close();
    }
  });

  test('no headers or body timeout: a late head and a silent body still arrive', limit, async () => {
    const server = await serve(async (_req, res, hit) => {
      if (hit.path === '/late-head') await delay(1500);
      res.writeHead(200, { 'content-type': 'text/plain' });
      await write(res, 'first ');
      if (hit.path === '/silent-body') await delay(1500);
      res.end('last');
    });
    const agent = new Agent();
    try {
      const requester = undiciRequester({ dispatcher: agent });
      // Both at once, to keep the test short.
      const late = requester(request(server.url, '/late-head')).then((r) => text(r));
      const silent = requester(request(server.url, '/silent-body')).then((r) => text(r));
      assert.deepEqual(await Promise.all([late, silent]), ['first last', 'first last']);
    } finally {
      await server.close();
      await agent.close();
    }
  });

  test('https with a custom CA on the dispatcher; the default refuses the certificate', limit, async (t) => {
    const tls = selfSignedCert();
    if (tls === undefined) return void t.skip('openssl not found');
    const server = await serve((_req, res) => void res.end('secure'), tls);
    const agent = new Agent({ connect: { ca: tls.cert } });
    try {
      const reply = await undiciRequester({ dispatcher: agent })(request(server.url, '/tls'));
      assert.equal(reply.status, 200);
      assert.equal(await text(reply), 'secure');

      await assert.rejects(undiciRequester()(request(server.url, '/tls')), (e: unknown) => {
        const code = String((e as NodeJS.ErrnoException).code);
        assert.match(code, /CERT/, String(e));
        return true;
      });
      assert.equal(server.hits.length, 1);
    } finally {
      await server.close();
      await agent.close();
    }
  });

  test('a URL that is neither http: nor https: rejects with a LocalError', limit, async () => {
    await assert.rejects(undiciRequester()(request(new URL('ftp://127.0.0.1/'))), LocalError);
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
      const agent = new Agent();
      try {
        const requester = undiciRequester({ dispatcher: agent });
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
        await server.close();
        await other.close();
        await agent.close();
      }
    },
  );
});
