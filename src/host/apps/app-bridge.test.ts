/**
 * The bridge's protocol logic in Node, with a view played by an mcpkit Session over a real
 * MessageChannel: nothing reaches the view before `ui/notifications/initialized`, the tool
 * policy (unknown, model-only, host-denied, allowed), refusals before `ui/initialize`,
 * optional host features, display modes, cancellation of a proxied call, and teardown.
 * The Chromium tests cover the same bridge in a page with the proxy and real views.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { WireError } from '../../jsonrpc/index.js';
import { Session } from '../../session/index.js';
import { PostMessageTransport } from '../../transports/post-message/index.js';
import { assertAppsSchema } from '../../test-support/apps-schema.js';
import { AppBridge } from './app-bridge.js';
import type { AppBridgeOptions } from './app-bridge.js';
import type { AppServer } from './app-resource.js';

type Obj = Record<string, unknown>;

const TOOLS = [
  { name: 'both' },
  { name: 'app_only', _meta: { ui: { visibility: ['app'] } } },
  { name: 'model_only', _meta: { ui: { visibility: ['model'] } } },
  { name: 'slow', _meta: { ui: { visibility: ['app'] } } },
];

function fakeServer(calls: Obj[]): AppServer & { listed: number } {
  const s = {
    listed: 0,
    async listTools() {
      s.listed++;
      return { tools: TOOLS };
    },
    async callTool(params: { name: string; arguments?: Obj }, options?: { signal?: AbortSignal }) {
      calls.push(params);
      if (params.name === 'slow') {
        await new Promise<void>((_, reject) =>
          options?.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
        );
      }
      return { content: [{ type: 'text', text: `${params.name} ran` }] };
    },
    async readResource(params: { uri: string }) {
      return { contents: [{ uri: params.uri, text: 'r' }] };
    },
    async listResources() {
      return { resources: [{ uri: 'ui://v', name: 'v' }] };
    },
  };
  return s;
}

async function pair(options: Partial<AppBridgeOptions> = {}) {
  const calls: Obj[] = [];
  const server = fakeServer(calls);
  const bridge = new AppBridge({
    server,
    hostInfo: { name: 'h', version: '1' },
    logger: () => undefined,
    ...options,
  });
  const { port1, port2 } = new MessageChannel();
  await bridge.connect(new PostMessageTransport({ target: port1 }), {
    resource: { uri: 'ui://v', html: '<!doctype html>', meta: {} },
    tool: { name: 'both', inputSchema: { type: 'object' } },
  });
  const view = new Session({ role: 'client', info: { name: 'view', version: '1' }, logger: () => undefined });
  const received: Array<[string, unknown]> = [];
  view.onnotification = (n) => received.push([n.method, n.params]);
  view.setRequestHandler('ui/resource-teardown', (p) => {
    received.push(['teardown', p]);
    return {};
  });
  await view.connect(new PostMessageTransport({ target: port2 }));
  const init = (appCapabilities: Obj = {}) =>
    view.request('ui/initialize', {
      protocolVersion: '2026-01-26',
      appInfo: { name: 'view', version: '1' },
      appCapabilities,
    });
  const close = async () => {
    await bridge.close();
    await view.close();
  };
  return { bridge, view, received, calls, server, init, close };
}

const code = (c: number) => (e: unknown) => e instanceof WireError && e.code === c;

describe('AppBridge lifecycle', () => {
  test('holds every host message until ui/notifications/initialized, then sends them in order', async () => {
    const p = await pair();
    p.bridge.sendToolInputPartial({ a: 0 });
    p.bridge.sendToolInputPartial({ a: 1 });
    p.bridge.sendToolInput({ a: 1, b: 2 });
    p.bridge.sendToolInputPartial({ a: 9 });
    p.bridge.sendToolResult({ content: [] });
    p.bridge.setHostContext({ theme: 'light' });
    const result = await p.init();
    assert.equal(result.protocolVersion, '2026-01-26');
    assertAppsSchema('McpUiInitializeResult', result);
    assert.equal((result.hostContext as Obj).theme, 'light', 'the answer carries the context set before it');
    p.bridge.setHostContext({ theme: 'dark' });
    assert.deepEqual(((result.hostContext as Obj).toolInfo as Obj).tool, {
      name: 'both',
      inputSchema: { type: 'object' },
    });
    await p.view.request('ping');
    assert.deepEqual(p.received, [], 'nothing before initialized, not even after the initialize answer');
    assert.equal(p.bridge.initialized, false);
    await p.view.notify('ui/notifications/initialized', {});
    await p.bridge.ready;
    await p.view.request('ping');
    assert.deepEqual(
      p.received.map((r) => r[0]),
      [
        'ui/notifications/tool-input-partial',
        'ui/notifications/tool-input',
        'ui/notifications/tool-result',
        'ui/notifications/host-context-changed',
      ],
      'partial input after the complete input is dropped',
    );
    assert.deepEqual(p.received[0]![1], { arguments: { a: 1 } }, 'only the latest queued partial input');
    assert.deepEqual(p.received[3]![1], { theme: 'dark' });
    const defs = [
      'McpUiToolInputPartialNotification',
      'McpUiToolInputNotification',
      'McpUiToolResultNotification',
      'McpUiHostContextChangedNotification',
    ];
    (p.received as Array<[string, unknown]>).forEach(([method, params], i) =>
      assertAppsSchema(defs[i]!, { method, params }),
    );
    p.bridge.setHostContext({ theme: 'dark' });
    await p.view.request('ping');
    assert.equal(p.received.length, 4, 'an unchanged context sends nothing');
    await p.bridge.teardown('done');
    assert.deepEqual(p.received.at(-1), ['teardown', { reason: 'done' }]);
    await p.view.close();
  });

  test('answers sandbox-proxy-ready once with the HTML, the approved CSP and granted permissions', async () => {
    const p = await pair({ grantPermissions: { clipboardWrite: {}, camera: {} } });
    await p.close();
    const calls: Obj[] = [];
    const bridge = new AppBridge({ server: fakeServer(calls), grantPermissions: { clipboardWrite: {} } });
    const { port1, port2 } = new MessageChannel();
    await bridge.connect(new PostMessageTransport({ target: port1 }), {
      resource: {
        uri: 'ui://v',
        html: '<!doctype html><p>v</p>',
        meta: {
          csp: { connectDomains: ['https://api.example.com', "'unsafe-eval'"] },
          permissions: { clipboardWrite: {}, microphone: {} },
        },
      },
    });
    const proxy = new Session({
      role: 'client',
      info: { name: 'proxy', version: '1' },
      logger: () => undefined,
    });
    const got: Array<[string, unknown]> = [];
    proxy.onnotification = (n) => got.push([n.method, n.params]);
    await proxy.connect(new PostMessageTransport({ target: port2 }));
    await proxy.notify('ui/notifications/sandbox-proxy-ready', {});
    await proxy.notify('ui/notifications/sandbox-proxy-ready', {});
    await proxy.request('ping');
    assert.equal(got.length, 1, 'the resource is sent once');
    const [method, params] = got[0]!;
    assert.equal(method, 'ui/notifications/sandbox-resource-ready');
    assertAppsSchema('McpUiSandboxResourceReadyNotification', { method, params });
    assert.deepEqual(params, {
      html: '<!doctype html><p>v</p>',
      sandbox: 'allow-scripts allow-forms',
      csp: { connectDomains: ['https://api.example.com'] },
      permissions: { clipboardWrite: {} },
    });
    assert.match(bridge.sandbox!.policy, /connect-src https:\/\/api\.example\.com;/);
    await bridge.close();
    await proxy.close();
  });

  test('refuses requests before ui/initialize and a second ui/initialize', async () => {
    const p = await pair();
    await assert.rejects(p.view.request('tools/call', { name: 'both' }), code(-32600));
    await p.init();
    await assert.rejects(p.init(), code(-32600));
    await p.close();
  });

  test('ready rejects when the bridge closes before the view initialized', async () => {
    const p = await pair();
    await p.close();
    await assert.rejects(p.bridge.ready, /closed before the view initialized/);
  });
});

describe('AppBridge tool policy', () => {
  test('only tools of this server whose visibility includes "app", then the host policy', async () => {
    const asked: string[] = [];
    const p = await pair({
      canCallTool: (r) => {
        asked.push(r.name);
        return r.name !== 'both';
      },
    });
    await p.init();
    const r = await p.view.request('tools/call', { name: 'app_only', arguments: { x: 1 } });
    assert.deepEqual(r.content, [{ type: 'text', text: 'app_only ran' }]);
    await assert.rejects(p.view.request('tools/call', { name: 'model_only' }), code(-32000));
    await assert.rejects(p.view.request('tools/call', { name: 'nope' }), code(-32602));
    await assert.rejects(p.view.request('tools/call', { name: 'both' }), code(-32000));
    await assert.rejects(p.view.request('tools/call', { name: 'app_only', arguments: [1] }), code(-32602));
    assert.deepEqual(p.calls, [{ name: 'app_only', arguments: { x: 1 } }]);
    assert.deepEqual(asked, ['app_only', 'both'], 'the policy sees only calls that passed visibility');
    assert.equal(p.server.listed, 1, 'the tool list is fetched once');
    await p.close();
  });

  test('a view may have only maxInFlight proxied requests at once', async () => {
    const rejected: string[] = [];
    const p = await pair({ maxInFlight: 2, onRejected: (what) => rejected.push(what) });
    await p.init();
    const controller = new AbortController();
    const slow = [1, 2].map(() =>
      p.view.request('tools/call', { name: 'slow' }, { signal: controller.signal }).catch((e: Error) => e),
    );
    while (p.calls.length < 2) await new Promise((r) => setImmediate(r));
    await assert.rejects(p.view.request('tools/call', { name: 'app_only' }), code(-32000));
    await assert.rejects(p.view.request('resources/read', { uri: 'ui://v' }), code(-32000));
    assert.deepEqual(rejected, [
      'too many proxied requests in flight',
      'too many proxied requests in flight',
    ]);
    controller.abort();
    await Promise.all(slow);
    // The slots free once the aborted calls have unwound on the host side.
    let again: Obj | undefined;
    for (let i = 0; i < 1000 && !again; i++) {
      again = await p.view.request('tools/call', { name: 'app_only' }).catch(() => undefined);
      if (!again) await new Promise((r) => setImmediate(r));
    }
    assert.ok(again, 'a slot is free again');
    await p.close();
  });

  test("the view's cancellation aborts the proxied call", async () => {
    const p = await pair();
    await p.init();
    const controller = new AbortController();
    const call = p.view.request('tools/call', { name: 'slow' }, { signal: controller.signal });
    while (p.calls.length === 0) await new Promise((r) => setImmediate(r));
    controller.abort();
    await assert.rejects(call, /cancel/i);
    await p.close();
  });
});

describe('AppBridge optional features', () => {
  test('without handlers, links and messages are refused and not advertised', async () => {
    const p = await pair();
    const init = await p.init();
    const caps = init.hostCapabilities as Obj;
    assert.ok(!caps.openLinks && !caps.message && !caps.updateModelContext);
    await assert.rejects(p.view.request('ui/open-link', { url: 'https://x.test' }), code(-32601));
    await assert.rejects(
      p.view.request('ui/message', { role: 'user', content: [{ type: 'text', text: 'x' }] }),
      code(-32601),
    );
    assert.deepEqual(await p.view.request('resources/list', {}), {
      resources: [{ uri: 'ui://v', name: 'v' }],
    });
    assert.deepEqual(await p.view.request('resources/read', { uri: 'ui://v' }), {
      contents: [{ uri: 'ui://v', text: 'r' }],
    });
    assert.deepEqual(await p.view.request('ui/update-model-context', { structuredContent: { a: 1 } }), {});
    assert.deepEqual(p.bridge.modelContext, { structuredContent: { a: 1 } });
    await p.close();
  });

  test('display modes: only modes both sides list, and the view is told', async () => {
    const sizes: unknown[] = [];
    const p = await pair({
      hostContext: { displayMode: 'inline', availableDisplayModes: ['inline', 'fullscreen', 'pip'] },
      onSizeChange: (s) => sizes.push(s),
    });
    await p.init({ availableDisplayModes: ['inline', 'fullscreen'] });
    await p.view.notify('ui/notifications/initialized', {});
    await p.bridge.ready;
    assert.deepEqual(await p.view.request('ui/request-display-mode', { mode: 'pip' }), { mode: 'inline' });
    assert.deepEqual(await p.view.request('ui/request-display-mode', { mode: 'fullscreen' }), {
      mode: 'fullscreen',
    });
    await assert.rejects(p.view.request('ui/request-display-mode', { mode: 'huge' }), code(-32602));
    await p.view.notify('ui/notifications/size-changed', { width: 300, height: 120 });
    await p.view.request('ping');
    assert.deepEqual(sizes, [{ width: 300, height: 120 }]);
    assert.deepEqual(p.received, [['ui/notifications/host-context-changed', { displayMode: 'fullscreen' }]]);
    await p.close();
  });
});
