import { registerApp, registerAppTool } from '../server/index.js';
import type { McpServer } from '../server/server.js';

/** The demo app's view URI. */
export const COUNTER_VIEW_URI = 'ui://mcpkit-demo/counter.html';

/**
 * The view: plain HTML and a little script that speaks the Apps protocol over postMessage
 * by hand (no SDK), so it shows the whole exchange: `ui/initialize`, then
 * `ui/notifications/initialized`, then the tool input and result from the host, and a
 * button that calls the app-only `counter_add` tool back through the host.
 */
export const COUNTER_VIEW_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Counter</title>
<style>
  :root { color-scheme: light dark; font-family: var(--font-sans, system-ui, sans-serif); }
  body { margin: 0; padding: 12px; }
  #count { font-size: 2em; font-weight: 600; margin: 4px 0; }
  .muted { opacity: .7; font-size: .9em; }
</style>
</head>
<body>
<div class="muted">Counter (an mcpkit demo app)</div>
<div id="count" data-testid="count">…</div>
<button id="add" type="button" disabled>Add 1 on the server</button>
<div id="status" class="muted" data-testid="status">connecting</div>
<script>
(() => {
  let nextId = 1;
  const waiting = new Map();
  const host = window.parent;
  const send = (message) => host.postMessage(message, '*');
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    send({ jsonrpc: '2.0', id, method, params });
  });
  const notify = (method, params) => send({ jsonrpc: '2.0', method, params });
  const $ = (id) => document.getElementById(id);
  const show = (result) => {
    const count = result && result.structuredContent && result.structuredContent.count;
    if (typeof count === 'number') $('count').textContent = String(count);
  };
  window.addEventListener('message', (event) => {
    if (event.source !== host) return;
    const m = event.data;
    if (!m || m.jsonrpc !== '2.0') return;
    if ('id' in m && !('method' in m)) {
      const w = waiting.get(m.id);
      if (!w) return;
      waiting.delete(m.id);
      if (m.error) w.reject(new Error(m.error.message)); else w.resolve(m.result);
      return;
    }
    if (m.method === 'ui/notifications/tool-input') $('status').textContent = 'input ' + JSON.stringify(m.params.arguments);
    else if (m.method === 'ui/notifications/tool-result') { show(m.params); $('status').textContent = 'result received'; }
    else if (m.method === 'ui/notifications/tool-cancelled') $('status').textContent = 'cancelled';
    else if (m.method === 'ui/notifications/host-context-changed' && m.params.theme) document.documentElement.style.colorScheme = m.params.theme;
    else if (m.method === 'ui/resource-teardown') send({ jsonrpc: '2.0', id: m.id, result: {} });
    else if (m.method === 'ping') send({ jsonrpc: '2.0', id: m.id, result: {} });
  });
  $('add').addEventListener('click', async () => {
    $('status').textContent = 'calling counter_add';
    try {
      const result = await request('tools/call', { name: 'counter_add', arguments: { by: 1 } });
      show(result);
      $('status').textContent = 'counter_add answered';
    } catch (e) {
      $('status').textContent = 'error: ' + e.message;
    }
  });
  request('ui/initialize', {
    protocolVersion: '2026-01-26',
    appInfo: { name: 'mcpkit-counter', version: '1.0.0' },
    appCapabilities: { availableDisplayModes: ['inline'] },
  }).then((init) => {
    const ctx = init.hostContext || {};
    if (ctx.theme) document.documentElement.style.colorScheme = ctx.theme;
    notify('ui/notifications/initialized', {});
    $('add').disabled = false;
    $('status').textContent = 'ready';
    notify('ui/notifications/size-changed', { width: document.body.scrollWidth, height: document.body.scrollHeight });
  }, (e) => { $('status').textContent = 'initialize failed: ' + e.message; });
})();
</script>
</body>
</html>
`;

/**
 * The demo's MCP App: `show_counter` (model-visible) renders the counter view, whose
 * button calls `counter_add`, a tool only the app may call (`visibility: ['app']`).
 */
export function registerEverythingApps(server: McpServer): void {
  let count = 0;
  const result = (text: string) => ({
    content: [{ type: 'text' as const, text }],
    structuredContent: { count },
  });
  registerApp(
    server,
    {
      name: 'show_counter',
      title: 'Show counter',
      description: 'Shows a server-side counter in an interactive view (MCP Apps)',
      resourceUri: COUNTER_VIEW_URI,
      html: COUNTER_VIEW_HTML,
      view: { name: 'Counter view', description: 'A counter with a button that calls the server' },
      prefersBorder: true,
      input: {
        type: 'object',
        properties: { start: { type: 'integer', description: 'Set the counter to this value first' } },
      },
    },
    (args: { start?: number }) => {
      if (typeof args.start === 'number') count = args.start;
      return result(`The counter is at ${count}.`);
    },
  );
  registerAppTool(
    server,
    {
      name: 'counter_add',
      description: 'Adds to the counter (called by the counter view, hidden from the model)',
      resourceUri: COUNTER_VIEW_URI,
      visibility: ['app'],
      input: {
        type: 'object',
        properties: { by: { type: 'integer', default: 1 } },
      },
    },
    (args: { by?: number }) => {
      count += typeof args.by === 'number' ? args.by : 1;
      return result(`The counter is at ${count}.`);
    },
  );
}
