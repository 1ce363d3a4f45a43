import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { LocalError } from '../../jsonrpc/index.js';
import { bindings } from '../../test-support/http-client-bindings.js';
import {
  initializeResult,
  newSession,
  openSse,
  result,
  sendJson,
  sseEvent,
  startServer,
} from '../../test-support/http-scripted-server.js';
import type { Seen } from '../../test-support/http-scripted-server.js';
import { WAIT_MS, waitFor } from '../../test-support/waiting.js';

for (const { name: binding, StreamableHttpClientTransport } of bindings) {
  describe(`on ${binding}`, () => {
    const SID = 'session-sse-retry';

    /**
     * The conformance `sse-retry` scenario, by hand: protocol 2025-03-26; tools/call answers
     * with an SSE priming event (`id`, `retry: 500`) and closes the stream 50 ms later; the
     * result is delivered on the GET that comes back with `Last-Event-ID`.
     */
    function sseRetryServer(getStatus: () => number = () => 200) {
      let counter = 0;
      let pendingId: unknown = null;
      const state = {
        closedAt: 0,
        resumedAt: 0,
        lastEventIds: [] as string[],
        standalone: [] as ServerResponse[],
      };
      const handle = (_req: unknown, res: ServerResponse, s: Seen): void => {
        if (s.method === 'GET') {
          const last = s.headers['last-event-id'];
          if (typeof last === 'string') {
            state.lastEventIds.push(last);
            state.resumedAt = s.at;
          }
          const status = getStatus();
          if (status !== 200) return void res.writeHead(status).end('unavailable');
          openSse(res, { 'mcp-session-id': SID });
          sseEvent(res, { id: `event-${++counter}`, retry: 500, data: '' });
          if (typeof last !== 'string') state.standalone.push(res);
          if (pendingId !== null && typeof last === 'string') {
            sseEvent(res, {
              event: 'message',
              id: `event-${++counter}`,
              data: {
                jsonrpc: '2.0',
                id: pendingId,
                result: { content: [{ type: 'text', text: 'resumed' }] },
              },
            });
            pendingId = null;
          }
          return;
        }
        const m = s.json?.method;
        if (m === 'initialize')
          return sendJson(res, initializeResult(s, '2025-03-26'), 200, { 'mcp-session-id': SID });
        if (m === 'tools/call') {
          pendingId = s.json?.id;
          openSse(res, { 'mcp-session-id': SID });
          sseEvent(res, { id: `event-${++counter}`, retry: 500, data: '' });
          // Pacing of the scripted server, the subject: the stream closes after its priming event.
          setTimeout(() => {
            state.closedAt = performance.now();
            res.end();
          }, 50);
          return;
        }
        if (s.json && 'id' in s.json) return sendJson(res, result(s, {}), 200, { 'mcp-session-id': SID });
        res.writeHead(202).end();
      };
      return { handle, state };
    }

    describe('StreamableHttpClientTransport: legacy resumability', () => {
      test('sse-retry: reconnects with GET and Last-Event-ID after the retry delay; the result arrives on the GET', async () => {
        const { handle, state } = sseRetryServer();
        const server = await startServer((req, res, s) => handle(req, res, s), '/');
        try {
          // The default wait is far from the server's 500 ms, so a loose upper bound (safe on a
          // loaded machine) still tells which of the two the client used.
          const transport = new StreamableHttpClientTransport({ url: server.url, defaultRetryMs: 30_000 });
          const session = newSession();
          await session.connect(transport);
          await session.initialize();
          assert.equal(transport.protocolVersion, '2025-03-26');
          const out = await session.request('tools/call', { name: 'test_reconnection', arguments: {} });
          assert.deepEqual(out.content, [{ type: 'text', text: 'resumed' }]);
          const delay = state.resumedAt - state.closedAt;
          assert.ok(delay >= 450 && delay < 15_000, `reconnected ${delay.toFixed(0)} ms after the close`);
          assert.equal(state.lastEventIds.length, 1);
          assert.match(state.lastEventIds[0]!, /^event-\d+$/);
          const resume = server.seen.find((s) => s.headers['last-event-id'] !== undefined)!;
          assert.equal(resume.headers['mcp-session-id'], SID);
          assert.equal(resume.headers['mcp-protocol-version'], '2025-03-26');
          // The resumed GET is closed by the client once it delivered what it owed.
          await waitFor(() => transport.activeRequests === 1, WAIT_MS, 'only the standalone stream left');
          assert.equal(transport.pendingResponses, 0);
          await session.close();
          await waitFor(() => transport.activeRequests === 0, WAIT_MS, 'everything closed');
        } finally {
          await server.close();
        }
      });

      test('gives up after maxReconnects failed reconnections and reports the last error', async () => {
        const { handle, state } = sseRetryServer(() => 503);
        const server = await startServer((req, res, s) => {
          // Shorter retry for this test: rewrite the POST stream's retry field.
          const write = res.write.bind(res);
          res.write = ((chunk: string) =>
            write(String(chunk).replace('retry: 500', 'retry: 20'))) as typeof res.write;
          handle(req, res, s);
        });
        try {
          const warnings: string[] = [];
          const transport = new StreamableHttpClientTransport({
            url: server.url,
            maxReconnects: 3,
            onwarning: (m) => warnings.push(m),
          });
          const session = newSession();
          await session.connect(transport);
          await session.initialize();
          await assert.rejects(session.request('tools/call', { name: 'x', arguments: {} }), (e: unknown) => {
            assert.ok(e instanceof LocalError);
            const cause = e.cause as LocalError;
            assert.match(
              cause.message,
              /Gave up reconnecting the response stream of tools\/call after 3 attempts/,
            );
            assert.match(String((cause.cause as Error).message), /HTTP 503/);
            return true;
          });
          assert.equal(state.lastEventIds.length, 3);
          assert.equal(transport.pendingResponses, 0);
          await session.close();
        } finally {
          await server.close();
        }
      });

      test('a stream that ends without an event id cannot be resumed: the request fails at once', async () => {
        const server = await startServer((_req, res, s) => {
          if (s.method === 'GET') return void res.writeHead(405).end();
          if (s.json?.method === 'initialize') return sendJson(res, initializeResult(s));
          if (s.json?.method === 'tools/call') {
            openSse(res);
            sseEvent(res, {
              data: {
                jsonrpc: '2.0',
                method: 'notifications/progress',
                params: { progressToken: 1, progress: 1 },
              },
            });
            return void res.end();
          }
          res.writeHead(202).end();
        });
        try {
          const transport = new StreamableHttpClientTransport({ url: server.url });
          const session = newSession();
          await session.connect(transport);
          await session.initialize();
          await assert.rejects(session.request('tools/call', { name: 'x' }), (e: unknown) => {
            assert.ok(e instanceof LocalError);
            assert.match((e.cause as Error).message, /ended before the server answered tools\/call/);
            return true;
          });
          assert.equal(server.of('GET').length, 1, 'only the standalone GET (405), no resumption');
          await session.close();
        } finally {
          await server.close();
        }
      });

      test('legacy abortRequest returns false: the session sends notifications/cancelled, the stream stays open', async () => {
        let held: ServerResponse | undefined;
        const server = await startServer((_req, res, s) => {
          if (s.method === 'GET') return void res.writeHead(405).end();
          if (s.json?.method === 'initialize') return sendJson(res, initializeResult(s));
          if (s.json?.method === 'tools/call') {
            openSse(res);
            sseEvent(res, { id: 'e1', data: '' });
            held = res;
            return;
          }
          res.writeHead(202).end();
        });
        try {
          const transport = new StreamableHttpClientTransport({ url: server.url });
          const session = newSession();
          await session.connect(transport);
          await session.initialize();
          const ac = new AbortController();
          const call = session.request('tools/call', { name: 'slow' }, { signal: ac.signal });
          await waitFor(() => held !== undefined);
          ac.abort('enough');
          await assert.rejects(call, (e: unknown) => e instanceof LocalError && e.code === 'Cancelled');
          await waitFor(
            () => server.of('notifications/cancelled').length === 1,
            2000,
            'notifications/cancelled',
          );
          assert.equal(transport.pendingResponses, 0, 'the response is no longer owed');
          assert.equal(held!.destroyed, false, 'the stream was not closed by the client');
          held!.end();
          await waitFor(() => transport.activeRequests === 0, WAIT_MS, 'the stream to end');
          assert.equal(server.of('GET').length, 1, 'no resumption for a cancelled request');
          await session.close();
        } finally {
          await server.close();
        }
      });
    });
  });
}
