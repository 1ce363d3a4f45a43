/**
 * The contract of an {@link HttpRequester}, run over real sockets against every requester:
 * `fetchRequester` (portable), `nodeRequester` (`node:http`) and `undiciRequester`. What
 * only one of them does (pools, retries, buffering, timeouts) is tested in its own file.
 */
import { describe, test } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import https from 'node:https';
import { Agent } from 'undici';
import { LocalError } from '../../jsonrpc/index.js';
import { HttpError } from './errors.js';
import { fetchRequester } from './http.js';
import { nodeRequester } from './node-requester.js';
import { Cancel, requestSameOrigin } from './requester.js';
import type { HttpRequester } from './requester.js';
import {
  discardKeepsSocket,
  isAbort,
  isTooLarge,
  lastResponseSent,
  latch,
  limit,
  pooled,
  request,
  selfSignedCert,
  served,
  text,
  write,
} from '../../test-support/requester-harness.js';
import { undiciRequester } from './undici-requester.js';
import { WAIT_MS, delay, settle, turn, waitFor } from '../../test-support/waiting.js';
import { skipReason } from '../../test-support/services.js';

/** A requester on a keep-alive pool of its own. */
interface Made {
  requester: HttpRequester;
  /** Resolves once a connection whose response ended is back in the pool. */
  idle(): Promise<void>;
  /** Closes the pool. */
  close(): Promise<void>;
}

interface Subject {
  name: string;
  /** A requester on a pool of its own that trusts `ca` for https (when given) besides the defaults. */
  make(ca?: string): Made;
  /** The requester made without options, on its shared default pool. */
  plain(): HttpRequester;
  /** The code of a failed connection (fetch wraps it in a `TypeError` as its cause). */
  code(e: unknown): string;
}

const READ_ONCE =
  'a body is read once: reading it again, after the whole of it, a stop or a discard, rejects';

const errnoCode = (e: unknown): string => String((e as NodeJS.ErrnoException).code);

const subjects: Subject[] = [
  {
    name: 'fetchRequester',
    make(ca) {
      if (ca === undefined) return { requester: fetchRequester(), idle: turn, close: async () => undefined };
      // Node's fetch takes an undici dispatcher for what web fetch has no option for.
      const agent = new Agent({ connect: { ca } });
      const requester = fetchRequester((input, init) =>
        fetch(input, { ...init, dispatcher: agent } as RequestInit),
      );
      return { requester, idle: turn, close: () => agent.close() };
    },
    plain: () => fetchRequester(),
    code: (e) => errnoCode((e as Error).cause),
  },
  {
    name: 'nodeRequester',
    make(ca) {
      const httpAgent = new http.Agent({ keepAlive: true });
      const httpsAgent = new https.Agent({ keepAlive: true, ca });
      return {
        requester: nodeRequester({ httpAgent, httpsAgent }),
        idle: () => pooled(httpAgent),
        close: async () => {
          httpAgent.destroy();
          httpsAgent.destroy();
        },
      };
    },
    plain: () => nodeRequester(),
    code: errnoCode,
  },
  {
    name: 'undiciRequester',
    make(ca) {
      const agent = new Agent(ca === undefined ? {} : { connect: { ca } });
      return { requester: undiciRequester({ dispatcher: agent }), idle: turn, close: () => agent.close() };
    },
    plain: () => undiciRequester(),
    code: errnoCode,
  },
];

for (const { name, make, plain, code } of subjects) {
  describe(name, () => {
    /** A test of the contract. */
    const clause = (title: string, fn: (t: TestContext) => Promise<void>, timeout = limit.timeout): void =>
      void test(title, { timeout }, fn);

    /** {@link make}, closed when the test `t` ends. */
    const made = (t: TestContext, ca?: string): Made => {
      const m = make(ca);
      t.after(() => m.close());
      return m;
    };

    clause(
      'bytes() returns a body sent in several chunks whole; status, statusText and headers',
      async (t) => {
        const server = await served(t, async (_req, res, hit) => {
          const json = JSON.stringify({
            method: hit.method,
            path: hit.path,
            body: hit.body,
            x: hit.headers['x-req'],
          });
          res.setHeader('x-a', ['1', '2']);
          res.writeHead(201, 'Made Here', { 'content-type': 'application/json' });
          // Pacing, the subject: the body comes in several chunks, not one write.
          await write(res, json.slice(0, 10));
          await delay(20);
          await write(res, json.slice(10, 20));
          await delay(20);
          res.end(json.slice(20));
        });
        const body = JSON.stringify({ q: 'café €' });
        const reply = await made(t).requester(
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
      },
    );

    clause(
      'bytes(max) past max rejects with MessageTooLarge; the server is still usable after',
      async (t) => {
        const server = await served(t, async (_req, res, hit) => {
          if (hit.path === '/small') return void res.end('small');
          res.writeHead(200, { 'content-length': '1000' });
          await write(res, 'x'.repeat(500));
          await delay(10); // pacing, the subject: bytes() is waiting for the rest
          res.end('x'.repeat(500));
        });
        const { requester } = made(t);
        // Over the limit while bytes() waits for the rest...
        const big = await requester(request(server.url, '/big'));
        await assert.rejects(big.bytes(999), isTooLarge);
        // ...and in a body that arrived before bytes() was called.
        const early = await requester(request(server.url, '/big'));
        await lastResponseSent(server);
        await assert.rejects(early.bytes(999), isTooLarge);
        const exact = await requester(request(server.url, '/big'));
        assert.equal((await exact.bytes(1000)).length, 1000);
        const small = await requester(request(server.url, '/small'));
        assert.equal(small.status, 200);
        assert.equal(await text(small), 'small');
      },
    );

    clause(
      'read(onText) streams text as it arrives, across a split UTF-8 character; false stops it',
      async (t) => {
        const first = latch();
        const closed = latch();
        const server = await served(t, async (_req, res) => {
          res.on('close', closed.fire);
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          await write(res, 'data: one\n\n');
          // The rest is written only once the client has read the first event: a reader that
          // waited for the end of the body would never get it.
          await first.promise;
          const euro = Buffer.from('€', 'utf8');
          // Pacing, the subject: a character split across two chunks that arrive apart.
          await write(res, Buffer.concat([Buffer.from('data: 5'), euro.subarray(0, 1)]));
          await delay(20);
          await write(res, Buffer.concat([euro.subarray(1), Buffer.from('\n\n')]));
          await delay(20);
          await write(res, 'data: stop\n\n');
          // The body never ends: the client stops reading.
        });
        const reply = await made(t).requester(request(server.url, '/sse'));
        assert.equal(reply.header('content-type'), 'text/event-stream');
        const texts: string[] = [];
        await reply.read((t) => {
          texts.push(t);
          if (texts.join('').includes('data: one\n\n')) first.fire();
          return !texts.join('').includes('data: stop\n\n');
        });
        assert.equal(texts.join(''), 'data: one\n\ndata: 5€\n\ndata: stop\n\n');
        assert.ok(texts.length >= 2, `arrived in ${texts.length} chunks`);
        assert.ok(texts.every((t) => !t.includes('\uFFFD')));
        // Stopping dropped the connection (the body was endless).
        await closed.promise;
      },
    );

    clause(READ_ONCE, async (t) => {
      const server = await served(t, async (_req, res, hit) => {
        if (hit.path === '/whole') return void res.end('whole');
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        await write(res, 'data: one\n\n');
        // The body never ends: the client stops reading.
      });
      const { requester } = made(t);
      const whole = await requester(request(server.url, '/whole'));
      assert.equal(await text(whole), 'whole');
      await assert.rejects(whole.bytes(1000), LocalError);
      const stopped = await requester(request(server.url, '/sse'));
      await stopped.read(() => false);
      await assert.rejects(
        stopped.read(() => undefined),
        LocalError,
      );
      const dropped = await requester(request(server.url, '/sse'));
      dropped.discard();
      await assert.rejects(dropped.bytes(1000), LocalError);
    });

    clause('a body that arrived before read() or bytes() is delivered whole', async (t) => {
      const server = await served(t, (_req, res, hit) => {
        if (hit.path === '/chunked') {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.write('chunked ');
          return void res.end('body €');
        }
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '9' }).end('whole €');
      });
      const { requester } = made(t);
      const r1 = await requester(request(server.url, '/length'));
      await lastResponseSent(server);
      assert.equal(await text(r1), 'whole €');
      const r2 = await requester(request(server.url, '/chunked'));
      await lastResponseSent(server);
      assert.equal(r2.header('transfer-encoding'), 'chunked');
      const texts: string[] = [];
      await r2.read((t) => void texts.push(t));
      assert.equal(texts.join(''), 'chunked body €');
    });

    clause('cancel.abort() rejects a body read in progress, or one aborted before its read', async (t) => {
      const server = await served(t, async (_req, res) => {
        res.writeHead(200, { 'content-length': '100000' });
        await write(res, 'data: 1\n\n');
        // ...and the rest never comes.
      });
      const { requester } = made(t);

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
      await settle(); // the read is under way
      c2.abort();
      await assert.rejects(reading, isAbort(c2));

      // Aborted between the head and the read of an unfinished body.
      const c3 = new Cancel();
      const r3 = await requester({ ...request(server.url, '/stream'), cancel: c3 });
      c3.abort();
      await assert.rejects(r3.bytes(1 << 20), isAbort(c3));
    });

    clause(
      'cancel.abort() rejects a request waiting for its head; an aborted one is never sent',
      async (t) => {
        const server = await served(t, (_req, res, hit) => {
          if (hit.path === '/ok') res.end('ok');
          // /hang never answers.
        });
        const { requester } = made(t);
        const hangs = () => server.hits.filter((h) => h.path === '/hang').length;

        // Before the response head: the request promise itself rejects.
        const c4 = new Cancel();
        const pending = requester({ ...request(server.url, '/hang'), cancel: c4 });
        await waitFor(() => hangs() === 1, WAIT_MS, 'the /hang request');
        c4.abort();
        await assert.rejects(pending, isAbort(c4));

        // With a reason of the caller's own.
        const c5 = new Cancel();
        const pending5 = requester({ ...request(server.url, '/hang'), cancel: c5 });
        await waitFor(() => hangs() === 2, WAIT_MS, 'the second /hang');
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
      },
    );

    clause(
      'a body the server cuts off rejects bytes() and read() instead of hanging',
      async (t) => {
        const server = await served(t, async (_req, res, hit) => {
          if (hit.path === '/chunked') res.writeHead(200, { 'content-type': 'text/plain' });
          else res.writeHead(200, { 'content-length': '100' });
          await write(res, 'x'.repeat(10));
          // Pacing, the subject: the cut comes while bytes() waits for the rest.
          if (hit.path !== '/late') await delay(30);
          res.socket?.destroy();
        });
        const { requester } = made(t);
        // Cut while bytes() is waiting for the rest, with a content-length...
        const r1 = await requester(request(server.url, '/length'));
        await assert.rejects(r1.bytes(1000), Error);
        // ...and chunked.
        const r2 = await requester(request(server.url, '/chunked'));
        assert.equal(r2.header('transfer-encoding'), 'chunked');
        await assert.rejects(r2.bytes(1000), Error);
        // Cut before bytes() was called.
        const r3 = await requester(request(server.url, '/late'));
        await lastResponseSent(server);
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
      },
      3000,
    );

    clause('discard() of an endless body cuts the connection', async (t) => {
      const closed = latch();
      const server = await served(t, async (_req, res) => {
        res.on('close', closed.fire);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        await write(res, ': open\n\n');
      });
      (await made(t).requester(request(server.url, '/sse'))).discard();
      await closed.promise;
    });

    clause('discard() of a short body that came with the head keeps the connection', async (t) => {
      const server = await served(
        t,
        (_req, res) =>
          void res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }).end('ok'),
      );
      const { requester, idle } = made(t);
      await discardKeepsSocket(server, requester, idle);
    });

    clause('https with a custom CA; without it the certificate is refused', async (t) => {
      const tls = selfSignedCert();
      if (tls === undefined) return void t.skip(skipReason('openssl'));
      const server = await served(t, (_req, res) => void res.end('secure'), tls);
      const reply = await made(t, tls.cert).requester(request(server.url, '/tls'));
      assert.equal(reply.status, 200);
      assert.equal(await text(reply), 'secure');

      await assert.rejects(plain()(request(server.url, '/tls')), (e: unknown) => {
        assert.match(code(e), /CERT/, String(e));
        return true;
      });
      assert.equal(server.hits.length, 1);
    });

    clause('a URL that is neither http: nor https: rejects with a LocalError', async () => {
      await assert.rejects(plain()(request(new URL('ftp://127.0.0.1/'))), LocalError);
    });

    clause(
      'requestSameOrigin follows a same-origin 307 with the body and refuses another origin',
      async (t) => {
        const other = await served(t, (_req, res) => void res.end('elsewhere'));
        const server = await served(t, (_req, res, hit) => {
          if (hit.path === '/old') return void res.writeHead(307, { location: '/new' }).end('moved');
          if (hit.path === '/away')
            return void res.writeHead(307, { location: `${other.url.origin}/x` }).end();
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ method: hit.method, path: hit.path, body: hit.body }));
        });
        const { requester } = made(t);
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
      },
    );
  });
}
