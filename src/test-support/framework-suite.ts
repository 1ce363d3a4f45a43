/**
 * The suite every framework adapter passes (src/serve/*.test.ts): an app with the adapter
 * mounted beside a route of its own, on 127.0.0.1, checked from outside over real sockets.
 * Both eras, the official SDK client, the deprecated HTTP+SSE transport, the DNS-rebinding
 * refusals, the body limit and bearer auth: an adapter must keep every default of the core.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkStreamableHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport as SdkSse } from '@modelcontextprotocol/sdk/client/sse.js';
import { Client } from '../client/client.js';
import type { EraPreference } from '../client/index.js';
import { McpServer } from '../server/server.js';
import { StreamableHttpClientTransport } from '../transports/http-client/index.js';
import { bearerAuth } from '../auth/server/bearer-auth.js';
import { InvalidTokenError, authInfoOf } from '../auth/server/auth-info.js';
import type { AdapterOptions } from '../serve/adapter-options.js';
import { initializeRequest, modern, postJson, request, sseMessages } from './http-server-harness.js';
import type { Obj, RawResponse } from './http-server-harness.js';

/** An app with the adapter mounted: the MCP endpoint, the origin, and the app's own route. */
export interface MountedApp {
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * Starts an app on 127.0.0.1 (any port) with the adapter made from `options` mounted, and
 * a route of the app's own: `GET /hello` answering `hello from the app`.
 */
export type MountApp = (server: McpServer, options: AdapterOptions) => Promise<MountedApp>;

/** A server with one tool, `echo` {text} → text, and `whoami` → the subject or `anonymous`. */
export function echoServer(): McpServer {
  const server = new McpServer({ name: 'framework-echo', version: '1.0.0' });
  server.tool(
    {
      name: 'echo',
      description: 'Says the text back',
      input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
    (args) => String((args as { text: string }).text),
  );
  server.tool({ name: 'whoami' }, (_args, ctx) => authInfoOf(ctx)?.subject ?? 'anonymous');
  return server;
}

/** The bearer layer with a verifier that knows one token, `good-token` (subject alice). */
export function testAuth(): AdapterOptions['auth'] & ReturnType<typeof bearerAuth> {
  return bearerAuth({
    resource: 'http://127.0.0.1/mcp',
    authorizationServers: ['https://as.example.com'],
    verifier: {
      verify: async (token) => {
        if (token !== 'good-token') throw new InvalidTokenError('unknown token');
        return { subject: 'alice', scopes: [], audience: ['http://127.0.0.1/mcp'], claims: {} };
      },
    },
  });
}

const textOf = (result: unknown): string =>
  String((((result as Obj).content as Obj[] | undefined)?.[0] ?? {}).text);

/** The JSON-RPC answer of a POST, whether it came as JSON or as SSE. */
export function answerOf(r: RawResponse): Obj | undefined {
  return r.json ?? sseMessages(r.body).find((m) => m.id !== undefined);
}

/** A modern tools/call of echo, by hand. */
export function callEcho(
  url: string,
  text: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const { body, headers: h } = modern('tools/call', { name: 'echo', arguments: { text } });
  return postJson(url, body, { ...h, ...headers });
}

/** Runs the adapter suite against `mount`. */
export function runFrameworkSuite(
  name: string,
  mount: MountApp,
  options: { legacySse?: boolean } = {},
): void {
  describe(`${name}: the adapter keeps the core's defaults`, () => {
    let app: MountedApp;
    let authApp: MountedApp;
    const server = echoServer();
    const authServer = echoServer();
    before(async () => {
      app = await mount(server, { maxBodyBytes: 64 * 1024 });
      authApp = await mount(authServer, { auth: testAuth(), legacySse: null });
    });
    after(async () => {
      await app?.close();
      await authApp?.close();
      await server.close();
      await authServer.close();
    });

    const connect = async (era: EraPreference): Promise<Client> => {
      const client = new Client({ name: `${name}-test`, version: '1.0.0' }, { era, timeoutMs: 10_000 });
      await client.connect(new StreamableHttpClientTransport({ url: `${app.origin}/mcp` }));
      return client;
    };

    for (const era of ['modern', 'legacy'] as const) {
      test(`mcpkit's client in the ${era} era lists and calls echo`, async () => {
        const client = await connect(era);
        try {
          assert.equal(client.era, era);
          const tools = await client.listTools();
          assert.deepEqual(tools.tools.map((t) => t.name).sort(), ['echo', 'whoami']);
          assert.equal(
            textOf(await client.callTool({ name: 'echo', arguments: { text: 'héllo' } })),
            'héllo',
          );
        } finally {
          await client.close();
        }
      });
    }

    test('the official SDK client on Streamable HTTP', async () => {
      const client = new SdkClient({ name: 'sdk', version: '1.0.0' });
      const transport = new SdkStreamableHttp(new URL(`${app.origin}/mcp`));
      await client.connect(transport as never);
      try {
        assert.equal(client.getServerVersion()?.name, 'framework-echo');
        assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'sdk' } })), 'sdk');
        await transport.terminateSession();
      } finally {
        await client.close();
      }
    });

    if (options.legacySse !== false) {
      test('the official SDK client on the deprecated HTTP+SSE transport (/sse, /messages)', async () => {
        const client = new SdkClient({ name: 'sdk-sse', version: '1.0.0' });
        await client.connect(new SdkSse(new URL(`${app.origin}/sse`)) as never);
        try {
          assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'old' } })), 'old');
        } finally {
          await client.close();
        }
      });
    }

    test("the app's own routes are still the app's", async () => {
      const r = await request(`${app.origin}/hello`, { method: 'GET' });
      assert.equal(r.status, 200);
      assert.equal(r.body, 'hello from the app');
    });

    test('DNS rebinding: a foreign Host or Origin gets 403 before anything runs', async () => {
      const port = new URL(app.origin).port;
      const foreignHost = await request(`${app.origin}/mcp`, {
        headers: {
          host: `evil.example:${port}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(initializeRequest()),
      });
      assert.equal(foreignHost.status, 403, foreignHost.body);
      const foreignOrigin = await callEcho(`${app.origin}/mcp`, 'x', { origin: 'http://evil.example' });
      assert.equal(foreignOrigin.status, 403, foreignOrigin.body);
      const sse = await request(`${app.origin}/sse`, {
        method: 'GET',
        headers: { host: 'evil.example', accept: 'text/event-stream' },
      });
      assert.equal(sse.status, 403, sse.body);
      // With auth, the page is refused as a foreign page (403), not challenged (401).
      const withAuth = await callEcho(`${authApp.origin}/mcp`, 'x', { host: 'evil.example' });
      assert.equal(withAuth.status, 403, withAuth.body);
      const fine = await callEcho(`${app.origin}/mcp`, 'fine', { origin: app.origin });
      assert.equal(fine.status, 200);
    });

    test('a body over maxBodyBytes gets 413, declared or not', async () => {
      const big = JSON.stringify({ ...initializeRequest(), pad: 'x'.repeat(70 * 1024) });
      const declared = await postJson(`${app.origin}/mcp`, big);
      assert.equal(declared.status, 413, declared.body);
      const under = await callEcho(`${app.origin}/mcp`, 'y'.repeat(60 * 1024));
      assert.equal(under.status, 200);
      assert.equal(textOf(answerOf(under)?.result), 'y'.repeat(60 * 1024));
    });

    test('auth: 401 with a challenge without a token, 200 with one, metadata served', async () => {
      const url = `${authApp.origin}/mcp`;
      const none = await callEcho(url, 'x');
      assert.equal(none.status, 401);
      assert.match(String(none.headers['www-authenticate']), /^Bearer resource_metadata=/);
      const bad = await callEcho(url, 'x', { authorization: 'Bearer wrong' });
      assert.equal(bad.status, 401);
      const { body, headers } = modern('tools/call', { name: 'whoami', arguments: {} });
      const good = await postJson(url, body, { ...headers, authorization: 'Bearer good-token' });
      assert.equal(good.status, 200, good.body);
      assert.equal(textOf(answerOf(good)?.result), 'alice');
      const meta = await request(`${authApp.origin}/.well-known/oauth-protected-resource/mcp`, {
        method: 'GET',
      });
      assert.equal(meta.status, 200);
      assert.equal(meta.json?.resource, 'http://127.0.0.1/mcp');
      const own = await request(`${authApp.origin}/hello`, { method: 'GET' });
      assert.equal(own.status, 200, 'the auth covers the MCP paths only');
    });

    test('serverCard: the card and the AI Catalog are answered, public even with auth', async () => {
      const carded = new McpServer({ name: 'com.example/echo', version: '1.0.0', description: 'Echo.' });
      const cardApp = await mount(carded, { auth: testAuth(), legacySse: null, serverCard: true });
      try {
        const card = await request(`${cardApp.origin}/mcp/server-card`, { method: 'GET' });
        assert.equal(card.status, 200);
        assert.equal(card.headers['content-type'], 'application/mcp-server-card+json');
        assert.equal(card.json?.name, 'com.example/echo');
        const catalog = await request(`${cardApp.origin}/.well-known/ai-catalog.json`, { method: 'GET' });
        assert.equal(catalog.status, 200);
        assert.equal((await request(`${cardApp.origin}/hello`, { method: 'GET' })).status, 200);
        assert.equal((await callEcho(`${cardApp.origin}/mcp`, 'x')).status, 401);
      } finally {
        await cardApp.close();
        await carded.close();
      }
    });
  });
}

/** A child process serving MCP, started by a command that prints `listening <url>` when ready. */
export interface ServingProcess {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Starts `command args` in `cwd` and waits for its `listening http://...` line on stdout;
 * fails with its output when it exits first or says nothing within `timeoutMs`.
 */
export function startServing(
  command: string,
  args: readonly string[],
  options: {
    cwd: string;
    timeoutMs?: number;
    env?: NodeJS.ProcessEnv;
    /** For a command that prints something else when ready: that line, and the URL it serves. */
    ready?: { line: RegExp; url: string };
  },
): Promise<ServingProcess> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    // A program whose SIGTERM handler leaves something open is cut off, and the test goes on.
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(kill);
  };
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${command} ${args.join(' ')} printed no URL in time: ${out}`));
    }, options.timeoutMs ?? 30_000);
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const ready = options.ready;
      const m = ready ? ready.line.exec(out) : /^listening (http:\/\/\S+)$/m.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolve({ url: ready ? ready.url : m[1]!, stop });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited (${code}) before printing a URL: ${out}`));
    });
  });
}

/** Calls echo at `url` with mcpkit's client in `era`; returns the text. */
export async function echoAt(url: string, text: string, era: EraPreference = 'modern'): Promise<string> {
  const client = new Client({ name: 'framework-example-test', version: '1.0.0' }, { era, timeoutMs: 10_000 });
  await client.connect(new StreamableHttpClientTransport({ url }));
  try {
    return textOf(await client.callTool({ name: 'echo', arguments: { text } }));
  } finally {
    await client.close();
  }
}
