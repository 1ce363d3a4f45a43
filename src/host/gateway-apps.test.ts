/**
 * MCP Apps through the gateway: a client that renders views sees the app's tools with
 * their `_meta.ui` and reads the views (even one its server does not list), and its view
 * calls the app-only tool by its upstream name; a client that renders none never sees the
 * app-only tool and cannot call it. Both eras, aliased and original names.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '../client/index.js';
import { WireError } from '../jsonrpc/index.js';
import { APP_MIME_TYPE, appResourceUri, appsClientCapabilities } from '../protocol/apps.js';
import { McpServer, registerApp, registerAppTool } from '../server/index.js';
import { StreamableHttpClientTransport } from '../transports/http-client/index.js';
import { serve } from '../serve/index.js';
import type { RunningServer } from '../serve/index.js';
import { Gateway } from './serve/gateway.js';
import type { Host } from './host.js';
import { makeHost } from '../test-support/host-harness.js';

const text = (r: { content: Array<{ type: string; text?: string }> }): string =>
  r.content.map((c) => c.text ?? `[${c.type}]`).join('');

function counterServer(): McpServer {
  const server = new McpServer({ name: 'counter', version: '1.0.0' });
  let count = 0;
  registerApp(
    server,
    {
      name: 'show_counter',
      description: 'Shows the counter in a view',
      resourceUri: 'ui://counter/view.html',
      html: '<!doctype html><html><body>counter</body></html>',
    },
    () => ({ content: [{ type: 'text', text: `count=${count}` }] }),
  );
  registerAppTool(
    server,
    { name: 'counter_add', description: 'Adds one (for the view only)', visibility: ['app'] },
    () => ({ content: [{ type: 'text', text: `count=${++count}` }] }),
  );
  // A view its server keeps out of resources/list, as the specification allows.
  registerAppTool(
    server,
    { name: 'show_hidden', description: 'A view not listed', resourceUri: 'ui://counter/hidden.html' },
    () => ({ content: [{ type: 'text', text: 'hidden view' }] }),
  );
  server.use((request, next) => {
    if (request.method === 'resources/read' && request.params.uri === 'ui://counter/hidden.html')
      return { contents: [{ uri: request.params.uri, mimeType: APP_MIME_TYPE, text: '<p>hidden</p>' }] };
    return next();
  });
  return server;
}

describe('MCP Apps through the gateway', () => {
  let web: RunningServer;
  let host: Host;

  before(async () => {
    web = await serve(counterServer(), { port: 0 });
    ({ host } = makeHost(
      { web: { url: web.url, policy: { default: 'allow' } } },
      { clientCapabilities: appsClientCapabilities() },
    ));
    await host.start();
  });

  after(async () => {
    await host.close();
    await web.close();
  });

  for (const era of ['legacy', 'modern'] as const) {
    for (const names of ['alias', 'original'] as const) {
      test(`${era} clients, ${names} names`, async () => {
        const gateway = new Gateway(host, { names });
        const running = await gateway.serveHttp();
        const n = (tool: string): string => (names === 'alias' ? `web__${tool}` : tool);
        const viewer = new Client(
          { name: 'app-host', version: '1.0.0' },
          { era, capabilities: appsClientCapabilities() },
        );
        const plain = new Client({ name: 'model-only', version: '1.0.0' }, { era });
        try {
          await viewer.connect(new StreamableHttpClientTransport({ url: running.url }));
          await plain.connect(new StreamableHttpClientTransport({ url: running.url }));

          // The client that renders views sees every tool, `_meta.ui` included.
          const seen = new Map<string, { _meta?: unknown }>();
          for await (const t of viewer.tools()) seen.set(t.name, t);
          assert.deepEqual([...seen.keys()].sort(), [n('counter_add'), n('show_counter'), n('show_hidden')]);
          assert.equal(appResourceUri(seen.get(n('show_counter'))!), 'ui://counter/view.html');
          assert.deepEqual((seen.get(n('counter_add'))!._meta as { ui: unknown }).ui, {
            visibility: ['app'],
          });

          // Its views are readable, the unlisted one too.
          for (const uri of ['ui://counter/view.html', 'ui://counter/hidden.html']) {
            const r = await viewer.readResource({ uri });
            assert.equal(r.contents[0]!.mimeType, APP_MIME_TYPE, uri);
          }

          // The view calls the app-only tool by its own (upstream) name, and by the served one.
          const before = Number(
            /count=(\d+)/.exec(text(await viewer.callTool({ name: n('show_counter') })))![1],
          );
          assert.equal(text(await viewer.callTool({ name: 'counter_add' })), `count=${before + 1}`);
          assert.equal(text(await viewer.callTool({ name: n('counter_add') })), `count=${before + 2}`);

          // A client that renders no views: its tool list is the model's, without the app-only tool.
          const listed: string[] = [];
          for await (const t of plain.tools()) listed.push(t.name);
          assert.deepEqual(listed.sort(), [n('show_counter'), n('show_hidden')]);
          for (const name of new Set([n('counter_add'), 'counter_add'])) {
            await assert.rejects(
              plain.callTool({ name }),
              (e: unknown) => e instanceof WireError && e.code === -32602 && /Unknown tool/.test(e.message),
              name,
            );
          }
          // The model-visible tool works for it as before.
          assert.match(text(await plain.callTool({ name: n('show_counter') })), /^count=\d+$/);
        } finally {
          await viewer.close();
          await plain.close();
          await gateway.close();
        }
      });
    }
  }
});
