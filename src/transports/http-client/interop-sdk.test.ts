/**
 * Interop: our HTTP client transports against the official TypeScript SDK v1 servers
 * (StreamableHTTPServerTransport, stateful, with an event store; SSEServerTransport).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { z } from 'zod';
import { LocalError } from '../../jsonrpc/index.js';
import { SessionExpiredError, isSessionExpired } from './errors.js';
import { SseClientTransport } from './sse-client-transport.js';
import { StreamableHttpClientTransport } from './streamable-http-client-transport.js';
import { newSession, startServer } from '../../test-support/http-scripted-server.js';
import type { Seen, ScriptedHttpServer } from '../../test-support/http-scripted-server.js';
import { WAIT_MS, delay, waitFor } from '../../test-support/waiting.js';

type Text = { content: { type: string; text: string }[] };

function sdkServer(): McpServer {
  const mcp = new McpServer({ name: 'sdk-v1', version: '1.0.0' });
  mcp.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  mcp.registerTool('notify', {}, () => {
    mcp.sendToolListChanged();
    return { content: [{ type: 'text', text: 'sent' }] };
  });
  mcp.registerTool('resumable', {}, async (extra) => {
    extra.closeSSEStream?.();
    // Pacing of the scripted server, the subject: the answer comes after its stream closed, so
    // it must travel on the resumed GET (the SDK stores it if the client is not back yet).
    await delay(150);
    return { content: [{ type: 'text', text: `resumed:${extra.closeSSEStream ? 'yes' : 'no'}` }] };
  });
  return mcp;
}

/** A stateful Streamable HTTP server: one SDK transport per session, 404 for unknown ids. */
async function streamableServer(enableJsonResponse: boolean) {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const closed: string[] = [];
  const server = await startServer(async (req: IncomingMessage, res: ServerResponse, s: Seen) => {
    const sid = s.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      const t = sessions.get(sid);
      if (!t)
        return void res
          .writeHead(404, { 'content-type': 'application/json' })
          .end('{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}');
      return t.handleRequest(req, res, s.json);
    }
    if (s.method !== 'POST' || s.json?.method !== 'initialize')
      return void res.writeHead(400).end('no session');
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse,
      eventStore: new InMemoryEventStore(),
      retryInterval: 100,
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) {
        sessions.delete(transport.sessionId);
        closed.push(transport.sessionId);
      }
    };
    await sdkServer().connect(transport);
    await transport.handleRequest(req, res, s.json);
  });
  return { server, sessions, closed };
}

describe('interop: SDK v1 StreamableHTTPServerTransport (stateful, event store)', () => {
  let sse: Awaited<ReturnType<typeof streamableServer>>;
  let json: Awaited<ReturnType<typeof streamableServer>>;
  before(async () => {
    sse = await streamableServer(false);
    json = await streamableServer(true);
  });
  after(async () => {
    await sse.server.close();
    await json.server.close();
  });

  test('initialize, tools over SSE replies, the GET stream, resumption, DELETE on close', async () => {
    const transport = new StreamableHttpClientTransport({ url: sse.server.url });
    const session = newSession();
    const notes: string[] = [];
    session.onnotification = (n) => notes.push(n.method);
    await session.connect(transport);
    await session.initialize();
    assert.equal(transport.protocolVersion, '2025-11-25');
    assert.ok(transport.sessionId && sse.sessions.has(transport.sessionId));

    const tools = await session.request('tools/list', {});
    assert.deepEqual((tools.tools as { name: string }[]).map((t) => t.name).sort(), [
      'echo',
      'notify',
      'resumable',
    ]);
    const echoed = (await session.request('tools/call', {
      name: 'echo',
      arguments: { text: 'héllo' },
    })) as Text;
    assert.equal(echoed.content[0]!.text, 'héllo');
    assert.ok(sse.server.of('tools/call').every((s) => s.headers['mcp-protocol-version'] === '2025-11-25'));

    await waitFor(() => sse.server.of('GET').length === 1, WAIT_MS, 'the standalone GET');
    await session.request('tools/call', { name: 'notify', arguments: {} });
    await waitFor(
      () => notes.includes('notifications/tools/list_changed'),
      2000,
      'list_changed on the GET stream',
    );

    const resumed = (await session.request('tools/call', {
      name: 'resumable',
      arguments: {},
    })) as Text;
    assert.equal(resumed.content[0]!.text, 'resumed:yes');
    const resume = sse.server.seen.filter(
      (s) => s.method === 'GET' && s.headers['last-event-id'] !== undefined,
    );
    assert.equal(resume.length, 1, 'one GET with Last-Event-ID');

    const id = transport.sessionId!;
    await session.close();
    const del = sse.server.of('DELETE').at(-1)!;
    assert.equal(del.headers['mcp-session-id'], id);
    await waitFor(() => sse.closed.includes(id), WAIT_MS, 'the SDK to end the session');
    await waitFor(() => transport.activeRequests === 0, WAIT_MS, 'everything to end');
  });

  test('JSON replies (enableJsonResponse)', async () => {
    const transport = new StreamableHttpClientTransport({ url: json.server.url });
    const session = newSession();
    await session.connect(transport);
    await session.initialize();
    const echoed = (await session.request('tools/call', {
      name: 'echo',
      arguments: { text: 'json' },
    })) as Text;
    assert.equal(echoed.content[0]!.text, 'json');
    await session.close();
  });

  test('a session the server ended answers 404: the transport closes with SessionExpiredError', async () => {
    const transport = new StreamableHttpClientTransport({ url: sse.server.url });
    const session = newSession();
    let closedWith: Error | undefined;
    session.onclose = (e) => (closedWith = e);
    await session.connect(transport);
    await session.initialize();
    await sse.sessions.get(transport.sessionId!)!.close();
    await assert.rejects(
      session.request('tools/list', {}),
      (e: unknown) => e instanceof LocalError && isSessionExpired(e),
    );
    assert.ok(closedWith instanceof SessionExpiredError);
    await waitFor(() => transport.activeRequests === 0, WAIT_MS, 'everything to end');
  });
});

/** An HTTP+SSE (2024-11-05) server: GET /sse opens the stream, POST /messages?sessionId=… */
async function sseOnlyServer(): Promise<{
  server: ScriptedHttpServer;
  transports: Map<string, SSEServerTransport>;
  closed: string[];
}> {
  const transports = new Map<string, SSEServerTransport>();
  const closed: string[] = [];
  const server = await startServer(async (req, res, s) => {
    const url = new URL(s.path, 'http://x');
    if (s.method === 'GET' && url.pathname === '/sse') {
      const t = new SSEServerTransport('/messages', res);
      transports.set(t.sessionId, t);
      t.onclose = () => void closed.push(t.sessionId);
      await sdkServer().connect(t);
      return;
    }
    const t =
      s.method === 'POST' && url.pathname === '/messages'
        ? transports.get(url.searchParams.get('sessionId') ?? '')
        : undefined;
    if (!t) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Cannot ' + s.method);
    await t.handlePostMessage(req, res, s.json);
  }, '/sse');
  return { server, transports, closed };
}

describe('interop: SDK v1 SSEServerTransport (HTTP+SSE, 2024-11-05)', () => {
  let legacy: Awaited<ReturnType<typeof sseOnlyServer>>;
  before(async () => {
    legacy = await sseOnlyServer();
  });
  after(() => legacy.server.close());

  test('SseClientTransport: endpoint event, POSTs, message events, close', async () => {
    const transport = new SseClientTransport({
      url: legacy.server.url,
      headers: { 'x-test': '1' },
    });
    const session = newSession();
    await session.connect(transport);
    assert.match(transport.endpoint!.href, /\/messages\?sessionId=/);
    await session.initialize();
    const echoed = (await session.request('tools/call', {
      name: 'echo',
      arguments: { text: 'old' },
    })) as Text;
    assert.equal(echoed.content[0]!.text, 'old');
    assert.ok(
      legacy.server.seen.every((s) => s.headers['x-test'] === '1'),
      'headers on GET and POSTs',
    );
    await session.close();
    await waitFor(() => legacy.closed.length === 1, WAIT_MS, 'the server to see the stream close');
    assert.equal(transport.activeRequests, 0);
  });

  test('legacySseFallback: a 404 to the initialize POST switches to HTTP+SSE on the same URL', async () => {
    const transport = new StreamableHttpClientTransport({
      url: legacy.server.url,
      legacySseFallback: true,
    });
    const session = newSession();
    await session.connect(transport);
    await session.initialize();
    assert.equal(transport.kind, 'sse');
    const echoed = (await session.request('tools/call', {
      name: 'echo',
      arguments: { text: 'fallback' },
    })) as Text;
    assert.equal(echoed.content[0]!.text, 'fallback');
    assert.equal(transport.abortRequest(0), false);
    const before = legacy.closed.length;
    await session.close();
    await waitFor(() => legacy.closed.length === before + 1, WAIT_MS, 'the SSE stream to close');
  });

  test('without the option, the 404 is a LocalError carrying the status', async () => {
    const transport = new StreamableHttpClientTransport({ url: legacy.server.url });
    const session = newSession();
    await session.connect(transport);
    await assert.rejects(
      session.initialize(),
      (e: unknown) => e instanceof LocalError && /HTTP 404/.test(String((e.cause as Error).message)),
    );
    await session.close();
  });
});
