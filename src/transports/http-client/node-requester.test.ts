/**
 * What only `nodeRequester` does, over real sockets: how `discard()` hands a socket back to
 * the `node:http` agent, and the retry of a request a reset kept-alive socket lost. The
 * contract it shares with the other requesters is in `requester-contract.test.ts`.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { nodeRequester } from './node-requester.js';
import {
  discardKeepsSocket,
  limit,
  pooled,
  request,
  served,
  text,
  write,
} from '../../test-support/requester-harness.js';
import { delay } from '../../test-support/waiting.js';

describe('nodeRequester', () => {
  test('discard() of a short body still arriving lets the keep-alive socket be reused', limit, async (t) => {
    const server = await served(t, async (_req, res) => {
      res.writeHead(200, { 'content-length': '4' });
      await write(res, 'ab');
      await delay(20); // pacing, the subject: the body is still arriving when it is discarded
      res.end('cd');
    });
    const agent = new http.Agent({ keepAlive: true });
    t.after(() => agent.destroy());
    await discardKeepsSocket(server, nodeRequester({ httpAgent: agent }), () => pooled(agent));
  });

  test(
    'a kept-alive socket the server resets is retried once on a fresh connection; a fresh one is not',
    limit,
    async (t) => {
      const server = await served(t, (req, res, hit) => {
        // Resets every second request on a connection, and /reset always, without answering.
        if (hit.path === '/reset' || hit.nth === 2) return void req.socket.destroy();
        res.writeHead(200, { 'content-type': 'text/plain' }).end(`ok ${hit.body}`);
      });
      const agent = new http.Agent({ keepAlive: true });
      const fresh = new http.Agent({ keepAlive: true });
      t.after(() => {
        agent.destroy();
        fresh.destroy();
      });
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
    },
  );
});
