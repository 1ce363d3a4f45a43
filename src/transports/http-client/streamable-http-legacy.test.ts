import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { LocalError, ParsedBatch, WireError } from '../../jsonrpc/index.js';
import type { ParsedFrame } from '../../jsonrpc/index.js';
import { HttpError, SessionExpiredError, isSessionExpired } from './errors.js';
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
import type { Seen, ScriptedHttpServer } from '../../test-support/http-scripted-server.js';
import { WAIT_MS, waitFor } from '../../test-support/waiting.js';

for (const { name: binding, StreamableHttpClientTransport } of bindings) {
  describe(`on ${binding}`, () => {
    const SID = 'sess-123';

    /** A scripted 2025-11-25 server: JSON or SSE answers, a GET stream, DELETE, and a kill switch. */
    function legacyServer(): {
      handle: (req: unknown, res: ServerResponse, s: Seen) => void;
      getStreams: ServerResponse[];
      expired: { on: boolean };
    } {
      const getStreams: ServerResponse[] = [];
      const expired = { on: false };
      const handle = (_req: unknown, res: ServerResponse, s: Seen): void => {
        if (s.headers['mcp-session-id'] !== undefined && expired.on)
          return sendJson(
            res,
            { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } },
            404,
          );
        if (s.method === 'GET') {
          openSse(res, { 'mcp-session-id': SID });
          getStreams.push(res);
          return;
        }
        if (s.method === 'DELETE') return void res.writeHead(200).end();
        const m = s.json?.method;
        if (m === 'initialize') return sendJson(res, initializeResult(s), 200, { 'mcp-session-id': SID });
        if (m === 'notifications/initialized') return void res.writeHead(202).end();
        const params = (s.json?.params ?? {}) as Record<string, unknown>;
        if (m === 'tools/call' && params.name === 'sse') {
          openSse(res);
          sseEvent(res, {
            data: {
              jsonrpc: '2.0',
              method: 'notifications/message',
              params: { level: 'info', data: 'working' },
            },
          });
          sseEvent(res, {
            event: 'message',
            data: result(s, { content: [{ type: 'text', text: 'via sse' }] }),
          });
          return void res.end();
        }
        if (m === 'tools/call' && params.name === 'fail500')
          return void res.writeHead(500, { 'content-type': 'text/plain' }).end('boom');
        if (m === 'tools/call' && params.name === 'fail400rpc') {
          return sendJson(
            res,
            { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: nope' } },
            400,
          );
        }
        if (m === 'tools/call' && params.name === 'badjson')
          return void res.writeHead(200, { 'content-type': 'application/json' }).end('{not json');
        if (s.json && 'id' in s.json)
          return sendJson(res, result(s, { content: [{ type: 'text', text: 'via json' }] }));
        res.writeHead(202).end();
      };
      return { handle, getStreams, expired };
    }

    describe('StreamableHttpClientTransport: legacy era against a scripted server', () => {
      let server: ScriptedHttpServer;
      let script: ReturnType<typeof legacyServer>;

      before(async () => {
        script = legacyServer();
        server = await startServer((req, res, s) => script.handle(req, res, s));
      });
      after(() => server.close());

      test('JSON and SSE replies, session id and protocol version headers, GET stream, DELETE', async () => {
        const transport = new StreamableHttpClientTransport({ url: server.url });
        const session = newSession();
        const notes: unknown[] = [];
        session.onnotification = (n) => notes.push(n);
        await session.connect(transport);
        await session.initialize();
        assert.equal(transport.sessionId, SID);
        assert.equal(transport.protocolVersion, '2025-11-25');

        const init = server.of('initialize')[0]!;
        assert.equal(init.headers['mcp-session-id'], undefined);
        assert.equal(init.headers['mcp-protocol-version'], undefined);
        assert.equal(init.headers['content-type'], 'application/json');
        assert.equal(init.headers.accept, 'application/json, text/event-stream');
        const initialized = server.of('notifications/initialized')[0]!;
        assert.equal(initialized.headers['mcp-session-id'], SID);
        assert.equal(initialized.headers['mcp-protocol-version'], '2025-11-25');

        const viaJson = await session.request('tools/call', { name: 'json', arguments: {} });
        assert.deepEqual(viaJson.content, [{ type: 'text', text: 'via json' }]);
        const viaSse = await session.request('tools/call', { name: 'sse', arguments: {} });
        assert.deepEqual(viaSse.content, [{ type: 'text', text: 'via sse' }]);
        assert.ok(notes.some((n) => (n as { method: string }).method === 'notifications/message'));
        for (const call of server.of('tools/call')) {
          assert.equal(call.headers['mcp-session-id'], SID);
          assert.equal(call.headers['mcp-protocol-version'], '2025-11-25');
        }

        // The standalone GET stream opened after notifications/initialized and carries server messages.
        await waitFor(() => script.getStreams.length === 1, WAIT_MS, 'the GET stream');
        const get = server.of('GET')[0]!;
        assert.equal(get.headers.accept, 'text/event-stream');
        assert.equal(get.headers['mcp-session-id'], SID);
        sseEvent(script.getStreams[0]!, {
          data: { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
        });
        await waitFor(() =>
          notes.some((n) => (n as { method: string }).method === 'notifications/tools/list_changed'),
        );

        const deletes = server.of('DELETE').length;
        await session.close();
        const del = server.of('DELETE');
        assert.equal(del.length, deletes + 1);
        assert.equal(del.at(-1)!.headers['mcp-session-id'], SID);
        await waitFor(
          () => script.getStreams[0]!.closed || script.getStreams[0]!.destroyed,
          2000,
          'the GET stream to close',
        );
        assert.equal(transport.activeRequests, 0);
        assert.equal(transport.pendingResponses, 0);
      });

      test('non-2xx: a JSON-RPC error body is the peer answer; anything else is a LocalError with the status', async () => {
        const transport = new StreamableHttpClientTransport({ url: server.url });
        const session = newSession();
        await session.connect(transport);
        await session.initialize();
        await assert.rejects(session.request('tools/call', { name: 'fail400rpc' }), (e: unknown) => {
          assert.ok(e instanceof WireError);
          assert.equal(e.code, -32000);
          assert.match(e.message, /nope/);
          return true;
        });
        await assert.rejects(session.request('tools/call', { name: 'fail500' }), (e: unknown) => {
          assert.ok(e instanceof LocalError);
          assert.ok(e.cause instanceof HttpError, 'the HTTP failure is the cause');
          assert.equal(e.cause.status, 500);
          assert.match(e.cause.message, /HTTP 500.*boom/);
          return true;
        });
        await assert.rejects(session.request('tools/call', { name: 'badjson' }), (e: unknown) => {
          assert.ok(e instanceof LocalError);
          assert.equal(e.code, 'InvalidMessage');
          return true;
        });
        assert.ok(session.isOpen, 'a failed request does not close the session');
        await session.close();
      });

      test('404 on a request carrying the session id closes the transport: session expired', async () => {
        const transport = new StreamableHttpClientTransport({ url: server.url });
        const session = newSession();
        let closedWith: Error | undefined;
        session.onclose = (e) => (closedWith = e);
        await session.connect(transport);
        await session.initialize();
        script.expired.on = true;
        try {
          await assert.rejects(session.request('tools/call', { name: 'json' }), (e: unknown) => {
            assert.ok(e instanceof LocalError);
            assert.equal(e.code, 'ConnectionClosed');
            assert.ok(isSessionExpired(e), 'the cause chain names the expired session');
            return true;
          });
          assert.ok(closedWith instanceof SessionExpiredError);
          assert.equal(closedWith.message, 'session expired (404)');
          assert.equal(session.isOpen, false);
          await waitFor(() => transport.activeRequests === 0, WAIT_MS, 'streams to end');
          // The transport can start again from scratch, without the old session id.
          script.expired.on = false;
          const again = newSession();
          await again.connect(transport);
          await again.initialize();
          assert.equal(server.of('initialize').at(-1)!.headers['mcp-session-id'], undefined);
          await again.close();
        } finally {
          script.expired.on = false;
        }
      });

      test('custom fetch and headers are used for POST, GET and DELETE', async () => {
        const used: string[] = [];
        let calls = 0;
        const transport = new StreamableHttpClientTransport({
          url: server.url,
          fetch: (input, init) => {
            used.push(init?.method ?? 'GET');
            return fetch(input, init);
          },
          headers: async () => ({ authorization: `Bearer t${++calls}`, 'x-proxy': 'yes' }),
        });
        const session = newSession();
        await session.connect(transport);
        await session.initialize();
        await session.request('tools/call', { name: 'json' });
        await waitFor(
          () => server.of('GET').some((s) => s.headers['x-proxy'] === 'yes'),
          2000,
          'the GET stream',
        );
        await session.close();
        assert.deepEqual([...new Set(used)].sort(), ['DELETE', 'GET', 'POST']);
        const mine = server.seen.filter((s) => s.headers['x-proxy'] === 'yes');
        assert.equal(
          mine.length,
          used.length,
          'every request went through the custom fetch with the headers',
        );
        assert.ok(mine.every((s) => /^Bearer t\d+$/.test(String(s.headers.authorization))));
        assert.equal(
          new Set(mine.map((s) => s.headers.authorization)).size,
          mine.length,
          'headers are computed per request',
        );
      });
    });

    describe('StreamableHttpClientTransport: transport failures', () => {
      test('a redirect to another origin is refused; a same-origin 307 is followed', async () => {
        const target = await startServer((_req, res, s) => sendJson(res, initializeResult(s)));
        const server = await startServer((_req, res, s) => {
          if (s.path === '/moved') return sendJson(res, initializeResult(s));
          const elsewhere =
            s.headers['x-case'] === 'cross' ? `http://localhost:${new URL(target.url).port}/mcp` : '/moved';
          res.writeHead(307, { location: elsewhere }).end();
        });
        try {
          const cross = new StreamableHttpClientTransport({
            url: server.url,
            headers: { 'x-case': 'cross' },
          });
          const s1 = newSession();
          await s1.connect(cross);
          await assert.rejects(s1.initialize(), (e: unknown) => {
            assert.ok(e instanceof LocalError && e.cause instanceof HttpError);
            assert.match(e.cause.message, /another origin/);
            return true;
          });
          assert.equal(target.seen.length, 0, 'nothing reached the other origin');
          await s1.close();
          const same = new StreamableHttpClientTransport({
            url: server.url,
            headers: { 'x-case': 'same' },
            onwarning: () => undefined,
          });
          const s2 = newSession();
          await s2.connect(same);
          await s2.initialize();
          await s2.close();
        } finally {
          await server.close();
          await target.close();
        }
      });

      test('a connection refused rejects the request with a LocalError naming the URL', async () => {
        const gone = await startServer(() => undefined);
        const url = gone.url;
        await gone.close();
        const transport = new StreamableHttpClientTransport({ url });
        const session = newSession();
        await session.connect(transport);
        await assert.rejects(session.initialize(), (e: unknown) => {
          assert.ok(e instanceof LocalError && e.cause instanceof LocalError);
          assert.match(e.cause.message, /POST http:\/\/127\.0\.0\.1:\d+\/mcp failed/);
          return true;
        });
        assert.equal(transport.activeRequests, 0);
        await session.close();
      });
    });

    describe('StreamableHttpClientTransport: batches and fallback decisions', () => {
      test('a 2025-03-26 batch is one POST; an array reply settles every request in it', async () => {
        const server = await startServer((_req, res, s) => {
          const batch = (Array.isArray(s.json) ? s.json : []) as { id: number }[];
          sendJson(
            res,
            batch.map((m) => ({ jsonrpc: '2.0', id: m.id, result: { n: m.id } })),
          );
        });
        try {
          const frames: ParsedFrame[] = [];
          const transport = new StreamableHttpClientTransport({ url: server.url });
          transport.start({ frame: (f) => void frames.push(f), closed: () => undefined });
          await transport.send([
            { jsonrpc: '2.0', id: 1, method: 'tools/list' },
            { jsonrpc: '2.0', id: 2, method: 'prompts/list' },
          ]);
          assert.equal(server.seen.length, 1);
          assert.ok(frames[0] instanceof ParsedBatch);
          assert.equal(frames[0].items.length, 2);
          assert.equal(transport.pendingResponses, 0);
          await transport.close();
        } finally {
          await server.close();
        }
      });

      test('legacySseFallback does not fall back when the 400 carries a JSON-RPC error', async () => {
        const server = await startServer((_req, res, s) =>
          sendJson(
            res,
            {
              jsonrpc: '2.0',
              id: s.json?.id,
              error: { code: -32602, message: 'Unsupported protocol version' },
            },
            400,
          ),
        );
        try {
          const transport = new StreamableHttpClientTransport({ url: server.url, legacySseFallback: true });
          const session = newSession();
          await session.connect(transport);
          await assert.rejects(
            session.initialize(),
            (e: unknown) => e instanceof WireError && e.code === -32602,
          );
          assert.equal(transport.kind, 'http');
          assert.equal(server.of('GET').length, 0, 'no GET for an SSE endpoint');
          await session.close();
        } finally {
          await server.close();
        }
      });
    });
  });
}
