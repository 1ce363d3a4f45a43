import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { LocalError } from '../../jsonrpc/index.js';
import type { ParsedFrame } from '../../jsonrpc/index.js';
import { HttpError } from './errors.js';
import { bindings } from '../../test-support/http-client-bindings.js';
import { openSse, sseEvent, startServer } from '../../test-support/http-scripted-server.js';
import { waitFor } from '../../test-support/waiting.js';

for (const { name: binding, SseClientTransport } of bindings) {
  describe(`on ${binding}`, () => {
    const sink = (frames: ParsedFrame[] = [], closed: (Error | undefined)[] = []) => ({
      frame: (f: ParsedFrame) => void frames.push(f),
      closed: (e?: Error) => void closed.push(e),
    });

    describe('SseClientTransport: refusals and endings', () => {
      test('an endpoint on another origin is refused and nothing is POSTed there', async () => {
        const server = await startServer((_req, res) => {
          openSse(res);
          sseEvent(res, { event: 'endpoint', data: 'http://localhost:1/messages' });
        });
        try {
          const t = new SseClientTransport({ url: server.url });
          await assert.rejects(
            t.start(sink()),
            (e: unknown) => e instanceof LocalError && /another origin/.test(e.message),
          );
          await assert.rejects(
            t.send({ jsonrpc: '2.0', method: 'x' }),
            (e: unknown) => e instanceof LocalError && e.code === 'ConnectionClosed',
          );
          assert.equal(t.activeRequests, 0);
        } finally {
          await server.close();
        }
      });

      test('a stream that ends before the endpoint event fails start(); a non-SSE answer is an HttpError', async () => {
        const server = await startServer((_req, res, s) => {
          if (s.path.endsWith('json'))
            return void res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
          if (s.path.endsWith('401')) return void res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
          openSse(res);
          res.end();
        });
        try {
          await assert.rejects(
            new SseClientTransport({ url: server.url }).start(sink()),
            /ended before its endpoint event/,
          );
          await assert.rejects(
            new SseClientTransport({ url: `${server.url}/json` }).start(sink()),
            (e: unknown) => e instanceof HttpError && e.status === 200,
          );
          await assert.rejects(
            new SseClientTransport({ url: `${server.url}/401` }).start(sink()),
            (e: unknown) => {
              assert.ok(e instanceof HttpError);
              assert.equal(e.status, 401);
              assert.equal(e.headers.get('www-authenticate'), 'Bearer');
              return true;
            },
          );
        } finally {
          await server.close();
        }
      });

      test('the server ending the stream closes the transport with an error; messages arrive in order', async () => {
        let stream: ServerResponse | undefined;
        const server = await startServer((_req, res, s) => {
          if (s.method === 'POST') return void res.writeHead(202).end('Accepted');
          openSse(res);
          sseEvent(res, { event: 'endpoint', data: '/messages?sessionId=abc' });
          stream = res;
        });
        try {
          const frames: ParsedFrame[] = [];
          const closed: (Error | undefined)[] = [];
          const t = new SseClientTransport({ url: server.url });
          await t.start(sink(frames, closed));
          assert.equal(t.endpoint?.href, `${server.origin}/messages?sessionId=abc`);
          await t.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
          assert.equal(server.of('ping')[0]!.path, '/messages?sessionId=abc');
          sseEvent(stream!, { event: 'message', data: { jsonrpc: '2.0', id: 1, result: {} } });
          sseEvent(stream!, { data: { jsonrpc: '2.0', method: 'notifications/message', params: {} } });
          sseEvent(stream!, { event: 'other', data: 'ignored' });
          await waitFor(() => frames.length === 2);
          stream!.end();
          await waitFor(() => closed.length === 1);
          assert.ok(closed[0] instanceof LocalError && /SSE stream ended/.test(closed[0].message));
          await assert.rejects(t.send({ jsonrpc: '2.0', method: 'x' }), /not open/);
        } finally {
          await server.close();
        }
      });
    });
  });
}
