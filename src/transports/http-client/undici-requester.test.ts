/**
 * What only `undiciRequester` does, over real sockets: the unread data it buffers and the
 * socket it pauses past that, an abort while queued for a connection, no timeouts, and how
 * it shares and reuses connections. The contract it shares with the other requesters is in
 * `requester-contract.test.ts`.
 */
import { describe, test } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from 'undici';
import type { HttpRequester } from './requester.js';
import { Cancel } from './requester.js';
import {
  isAbort,
  latch,
  limit,
  pathsAndSockets,
  request,
  served,
  text,
  write,
} from '../../test-support/requester-harness.js';
import { undiciRequester } from './undici-requester.js';
import { WAIT_MS, delay, settle, turn, waitFor, within } from '../../test-support/waiting.js';

/** `size` bytes of a pattern that shows any lost, repeated or reordered chunk. */
function pattern(size: number): Buffer {
  const out = Buffer.alloc(size);
  for (let i = 0; i + 4 <= size; i += 4) out.writeUInt32BE(i >>> 2, i);
  return out;
}

/** A requester on an `Agent` of its own, closed when the test `t` ends. */
function onAgent(t: TestContext, options?: Agent.Options): HttpRequester {
  const agent = new Agent(options);
  t.after(() => agent.close());
  return undiciRequester({ dispatcher: agent });
}

describe('undiciRequester', () => {
  test(
    'a body that arrived before read() or bytes() is delivered whole past the 1 MiB unread limit',
    limit,
    async (t) => {
      const large = pattern(3 * 1024 * 1024 + 5);
      const largeText = 'a€'.repeat(600_000); // 2.4 MB, with characters split across chunks
      const server = await served(t, (_req, res, hit) => {
        if (hit.path === '/large') return void res.writeHead(200).end(large);
        if (hit.path === '/large-text') return void res.writeHead(200).end(largeText);
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '9' }).end('whole €');
      });
      const requester = onAgent(t);

      // More than the requester buffers unread: the socket is paused until a reader comes.
      // The pauses below are kept on purpose: the subject is a body left unread for a while,
      // nothing outside undici shows the moment its socket paused, and the test passes
      // whether or not it did (they only make the paused path likely).
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
    },
  );

  test('cancel.abort() of a request still queued for a connection rejects at once', limit, async (t) => {
    const released = latch();
    t.after(released.fire);
    const server = await served(t, async (_req, res, hit) => {
      if (hit.path === '/slow') await released.promise;
      res.end(hit.path);
    });
    // One connection: the second request waits in undici's queue, not yet connected.
    const requester = onAgent(t, { connections: 1 });
    const slow = requester(request(server.url, '/slow'));
    slow.catch(() => undefined); // awaited below; no unhandled rejection if the test fails first
    await waitFor(() => server.hits.length === 1, WAIT_MS, 'the /slow request');
    const cancel = new Cancel();
    const queued = requester({ ...request(server.url, '/queued'), cancel });
    await settle(); // in undici's queue by now
    cancel.abort();
    await within(assert.rejects(queued, isAbort(cancel)), WAIT_MS, 'the aborted request queued behind /slow');
    released.fire();
    assert.equal(await text(await slow), '/slow');
    assert.equal(await text(await requester(request(server.url, '/next'))), '/next');
    assert.deepEqual(
      server.hits.map((h) => h.path),
      ['/slow', '/next'],
    );
  });

  test('sequential requests on one dispatcher reuse the kept-alive connection', limit, async (t) => {
    const server = await served(t, (_req, res, hit) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`${hit.method} ${hit.body}`);
    });
    const requester = onAgent(t);
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
  });

  test('without options: works, and two requesters share the connections', limit, async (t) => {
    const server = await served(t, (_req, res, hit) => void res.end(`hello ${hit.path}`));
    const a = undiciRequester();
    const b = undiciRequester();
    assert.equal(await text(await a(request(server.url, '/a'))), 'hello /a');
    await turn();
    assert.equal(await text(await b(request(server.url, '/b'))), 'hello /b');
    await turn();
    assert.equal(await text(await a(request(server.url, '/c'))), 'hello /c');
    assert.deepEqual(pathsAndSockets(server), [
      ['/a', 1],
      ['/b', 1],
      ['/c', 1],
    ]);
    assert.equal(server.connections(), 1);
  });

  test('no headers or body timeout: a late head and a silent body still arrive', limit, async (t) => {
    // Time is the subject: a head and a body that come late (real sockets: no mock clock).
    const server = await served(t, async (_req, res, hit) => {
      if (hit.path === '/late-head') await delay(1500);
      res.writeHead(200, { 'content-type': 'text/plain' });
      await write(res, 'first ');
      if (hit.path === '/silent-body') await delay(1500);
      res.end('last');
    });
    const requester = onAgent(t);
    // Both at once, to keep the test short.
    const late = requester(request(server.url, '/late-head')).then((r) => text(r));
    const silent = requester(request(server.url, '/silent-body')).then((r) => text(r));
    assert.deepEqual(await Promise.all([late, silent]), ['first last', 'first last']);
  });
});
