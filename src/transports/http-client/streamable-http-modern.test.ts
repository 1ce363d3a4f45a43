import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { LocalError } from '../../jsonrpc/index.js';
import { bindings } from '../../test-support/http-client-bindings.js';
import {
  newSession,
  openSse,
  result,
  sendJson,
  sseEvent,
  startServer,
} from '../../test-support/http-scripted-server.js';
import type { Seen, ScriptedHttpServer } from '../../test-support/http-scripted-server.js';
import { WAIT_MS, settle, waitFor } from '../../test-support/waiting.js';

for (const { name: binding, StreamableHttpClientTransport } of bindings) {
  describe(`on ${binding}`, () => {
    const VERSION = '2026-07-28';

    const TOOLS = [
      {
        name: 'execute_sql',
        inputSchema: {
          type: 'object',
          properties: {
            region: { type: 'string', 'x-mcp-header': 'Region' },
            query: { type: 'string' },
            opts: {
              type: 'object',
              properties: { tenant: { type: 'integer', 'x-mcp-header': 'Tenant' } },
            },
            dry: { type: ['boolean', 'null'], 'x-mcp-header': 'Dry-Run' },
          },
        },
      },
      {
        name: 'bad_number',
        inputSchema: { type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } },
      },
      {
        name: 'bad_items',
        inputSchema: {
          type: 'object',
          properties: { l: { type: 'array', items: { type: 'string', 'x-mcp-header': 'L' } } },
        },
      },
      {
        name: 'bad_dup',
        inputSchema: {
          type: 'object',
          properties: {
            a: { type: 'string', 'x-mcp-header': 'X' },
            b: { type: 'string', 'x-mcp-header': 'x' },
          },
        },
      },
      {
        name: 'plain',
        inputSchema: { type: 'object', properties: { 'x-mcp-header': { type: 'string' } } },
      },
    ];

    describe('StreamableHttpClientTransport: modern era (2026-07-28)', () => {
      let server: ScriptedHttpServer;
      const closedEarly: Seen[] = [];

      before(async () => {
        server = await startServer((_req, res: ServerResponse, s) => {
          // A session id header must be ignored in this era.
          const extra = { 'mcp-session-id': 'ignored' };
          const m = s.json?.method;
          const params = (s.json?.params ?? {}) as Record<string, unknown>;
          if (s.method !== 'POST') return void res.writeHead(405).end();
          if (m === 'tools/list')
            return sendJson(res, result(s, { tools: TOOLS, resultType: 'complete' }), 200, extra);
          if (m === 'tools/call' && params.name === 'hang') {
            openSse(res);
            res.on('close', () => {
              if (!res.writableEnded) closedEarly.push(s);
            });
            return;
          }
          if (m === 'tools/call' && params.name === 'streamed') {
            openSse(res);
            sseEvent(res, { data: result(s, { content: [], resultType: 'complete' }) });
            return void res.end();
          }
          if (s.json && 'id' in s.json)
            return sendJson(res, result(s, { content: [], resultType: 'complete' }), 200, extra);
          res.writeHead(202).end();
        });
      });
      after(() => server.close());

      async function modernSession(warnings: string[] = []) {
        const transport = new StreamableHttpClientTransport({
          url: server.url,
          onwarning: (m) => warnings.push(m),
        });
        const session = newSession();
        await session.connect(transport);
        session.useModern(VERSION);
        return { transport, session, warnings };
      }

      test('MCP-Protocol-Version, Mcp-Method, Mcp-Name (Base64 sentinel) and Mcp-Param-* from x-mcp-header', async () => {
        const { transport, session, warnings } = await modernSession();
        const list = await session.request('tools/list', {});
        const names = (list.tools as { name: string }[]).map((t) => t.name);
        assert.deepEqual(names, ['execute_sql', 'plain'], 'tools with invalid x-mcp-header are left out');
        assert.equal(warnings.length, 3);
        assert.ok(warnings.some((w) => /bad_number.*type string, integer or boolean/.test(w)));
        assert.ok(warnings.some((w) => /bad_items.*not reachable/.test(w)));
        assert.ok(warnings.some((w) => /bad_dup.*used twice/.test(w)));

        const listed = server.of('tools/list')[0]!;
        assert.equal(listed.headers['mcp-protocol-version'], VERSION);
        assert.equal(listed.headers['mcp-method'], 'tools/list');
        assert.equal(listed.headers['mcp-name'], undefined);

        await session.request('tools/call', {
          name: 'execute_sql',
          arguments: { region: ' padded ', query: 'SELECT 1', opts: { tenant: 42 }, dry: false },
        });
        let call = server.of('tools/call').at(-1)!;
        assert.equal(call.headers['mcp-method'], 'tools/call');
        assert.equal(call.headers['mcp-name'], 'execute_sql');
        assert.equal(call.headers['mcp-param-region'], '=?base64?IHBhZGRlZCA=?=');
        assert.equal(call.headers['mcp-param-tenant'], '42');
        assert.equal(call.headers['mcp-param-dry-run'], 'false');

        await session.request('tools/call', {
          name: 'execute_sql',
          arguments: { region: 'us-west1', dry: null },
        });
        call = server.of('tools/call').at(-1)!;
        assert.equal(call.headers['mcp-param-region'], 'us-west1');
        assert.equal(call.headers['mcp-param-tenant'], undefined, 'absent values send no header');
        assert.equal(call.headers['mcp-param-dry-run'], undefined, 'null sends no header');

        await session.request('tools/call', { name: 'Hello, 世界', arguments: {} });
        assert.equal(server.of('tools/call').at(-1)!.headers['mcp-name'], '=?base64?SGVsbG8sIOS4lueVjA==?=');
        await session.request('prompts/get', { name: '=?base64?literal?=' });
        assert.equal(server.of('prompts/get')[0]!.headers['mcp-name'], '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=');
        await session.request('resources/read', { uri: 'file:///projects/myapp/config.json' });
        assert.equal(
          server.of('resources/read')[0]!.headers['mcp-name'],
          'file:///projects/myapp/config.json',
        );

        for (const s of server.seen) {
          assert.equal(s.headers['mcp-session-id'], undefined, 'no session id in the modern era');
          assert.equal(s.headers['last-event-id'], undefined);
          assert.equal(s.method, 'POST', 'no GET stream, no DELETE');
        }
        assert.equal(transport.sessionId, undefined);
        await session.close();
        assert.ok(
          server.seen.every((s) => s.method === 'POST'),
          'close sends no DELETE',
        );
      });

      test('abortRequest closes the request stream (the cancellation) and sends no notifications/cancelled', async () => {
        const { transport, session } = await modernSession();
        const ac = new AbortController();
        const call = session.request('tools/call', { name: 'hang', arguments: {} }, { signal: ac.signal });
        await waitFor(() =>
          server.of('tools/call').some((s) => (s.json?.params as { name: string }).name === 'hang'),
        );
        await settle(); // the SSE head has reached the client
        ac.abort('user gave up');
        await assert.rejects(call, (e: unknown) => e instanceof LocalError && e.code === 'Cancelled');
        await waitFor(() => closedEarly.length === 1, WAIT_MS, 'the server to see the stream close');
        assert.equal(server.of('notifications/cancelled').length, 0);
        await waitFor(() => transport.activeRequests === 0);
        assert.equal(transport.pendingResponses, 0);
        assert.equal(transport.abortRequest(12345), true, 'modern: the transport owns cancellation');
        await session.close();
      });

      test('no leaks: 2,000 sequential requests (JSON and SSE) leave nothing behind', async () => {
        const warnings: unknown[] = [];
        const onWarning = (w: Error) => warnings.push(w);
        process.on('warning', onWarning);
        try {
          const { transport, session } = await modernSession();
          const shared = new AbortController();
          for (let i = 0; i < 2000; i++) {
            const name = i % 4 === 0 ? 'streamed' : 'quick';
            await session.request('tools/call', { name, arguments: {} }, { signal: shared.signal });
            if (i % 500 === 0) assert.ok(transport.activeRequests <= 1);
          }
          assert.equal(transport.pendingResponses, 0);
          await waitFor(() => transport.activeRequests === 0, WAIT_MS, 'every HTTP request to end');
          assert.equal(session.pendingCount, 0);
          await session.close();
          assert.deepEqual(warnings, [], 'no MaxListenersExceededWarning or other process warnings');
        } finally {
          process.off('warning', onWarning);
        }
      });
    });
  });
}
