/**
 * The Apps requests beyond the first revision, in real Chromium with a view built with the
 * official `App` class: `ui/download-file` (saved, cancelled, malformed, not offered),
 * `sampling/createMessage` from the view (answered, not offered), and the tools a view
 * exposes to the host (`tools/list` and `tools/call` sent to the view, its list_changed);
 * and `_meta.ui.domain`: a view that declares one is framed on that domain's own origin.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '../../client/client.js';
import { registerApp } from '../../server/index.js';
import { McpServer } from '../../server/server.js';
import { appDomainLabel } from './app-domain.js';
import {
  AppsTestBed,
  appsClientOf,
  SKIP_CHROMIUM,
  officialAppHtml,
} from '../../test-support/apps-harness.js';

type Obj = Record<string, unknown>;

const VIEW = `
const app = new ExtApps.App({ name: 'extras-probe', version: '1.0.0' });
let clicks = 0;
const tool = app.registerTool('view_clicks', { description: 'How often the view was clicked' }, async () => ({
  content: [{ type: 'text', text: 'clicks=' + clicks }],
}));
await app.connect();
window.app = app;
window.click = () => { clicks++; };
window.addTool = () => app.registerTool('view_reset', { description: 'Resets the count' }, async () => {
  clicks = 0;
  return { content: [{ type: 'text', text: 'reset' }] };
});
const settle = (p) => p.then((r) => r, (e) => ({ thrown: e.message }));
window.download = (contents) => settle(app.downloadFile({ contents }));
window.sample = (text) => settle(app.createSamplingMessage({
  messages: [{ role: 'user', content: { type: 'text', text } }],
  maxTokens: 20,
}));
document.getElementById('out').textContent = 'connected';
`;

const FILE = {
  type: 'resource',
  resource: { uri: 'file:///export.json', mimeType: 'application/json', text: '{"a":1}' },
};
const LINK = { type: 'resource_link', uri: 'https://example.com/q4.pdf', name: 'Q4 report' };

describe(
  'AppBridge in Chromium: downloads, sampling and the view’s own tools',
  { skip: SKIP_CHROMIUM },
  () => {
    let bed: AppsTestBed;
    let server: McpServer;
    let client: Client;

    before(async () => {
      bed = await AppsTestBed.start();
      server = new McpServer({ name: 'extras-server', version: '1' }, { logger: () => undefined });
      registerApp(
        server,
        { name: 'extras', resourceUri: 'ui://extras/view.html', html: officialAppHtml(VIEW) },
        () => ({
          content: [{ type: 'text', text: 'shown' }],
        }),
      );
      for (const [name, domain] of [
        ['on_a', 'a.views.example'],
        ['on_a_again', 'a.views.example'],
        ['on_b', 'b.views.example'],
      ] as const) {
        registerApp(
          server,
          { name, domain, resourceUri: `ui://extras/${name}.html`, html: officialAppHtml(VIEW) },
          () => ({ content: [{ type: 'text', text: 'shown' }] }),
        );
      }
      client = await appsClientOf(server);
    });

    after(async () => {
      await client?.close();
      await server?.close();
      await bed?.close();
    });

    test('offered: downloads are saved or cancelled, sampling is answered, view tools are listed and called', async () => {
      const host = await bed.open(client);
      await host.mount({ tool: 'extras', args: {}, downloads: 'accept', sampling: true });
      await host.view.locator('#out').filter({ hasText: 'connected' }).waitFor();
      const view = await host.viewFrame();
      const caps = (await view.evaluate(() =>
        (window as unknown as { app: { getHostCapabilities(): Obj } }).app.getHostCapabilities(),
      )) as Obj;
      assert.deepEqual(caps.downloadFile, {});
      assert.deepEqual(caps.sampling, {});

      // ui/download-file: an embedded file and a link reach the host's callback as sent.
      const saved = (await view.evaluate(
        (c) => (window as unknown as { download(c: unknown): Promise<Obj> }).download(c),
        [FILE, LINK],
      )) as Obj;
      assert.deepEqual(saved, {});
      const [, items] = (await host.event('download')) as [string, Obj[]];
      assert.deepEqual(items, [FILE, LINK]);
      // A malformed item is refused before the host sees it.
      const bad = (await view.evaluate(() =>
        (window as unknown as { download(c: unknown): Promise<Obj> }).download([
          { type: 'resource', resource: { uri: 'file:///x' } },
        ]),
      )) as Obj;
      assert.match(String(bad.thrown), /contents\[0\]/);
      assert.equal((await host.events()).filter((e) => e[0] === 'download').length, 1);

      // sampling/createMessage from the view: answered by the host's callback.
      const sampled = (await view.evaluate(() =>
        (window as unknown as { sample(t: string): Promise<Obj> }).sample('hello model'),
      )) as Obj;
      assert.deepEqual(sampled.content, { type: 'text', text: 'sampled: hello model' });
      assert.equal(sampled.model, 'test-model');
      const [, params] = (await host.event('sampling')) as [string, Obj];
      assert.equal(params.maxTokens, 20);

      // The view's own tools: listed and called from the host, and a change announced.
      const list = async (): Promise<string[]> =>
        host.page.evaluate(async () => {
          const b = (window as unknown as { bridge: { listViewTools(): Promise<Array<{ name: string }>> } })
            .bridge;
          return (await b.listViewTools()).map((t) => t.name);
        });
      const call = (name: string): Promise<Obj> =>
        host.page.evaluate(
          (n) =>
            (window as unknown as { bridge: { callViewTool(n: string): Promise<Obj> } }).bridge.callViewTool(
              n,
            ),
          name,
        );
      assert.deepEqual(await list(), ['view_clicks']);
      await view.evaluate(() => {
        const w = window as unknown as { click(): void };
        w.click();
        w.click();
      });
      assert.deepEqual((await call('view_clicks')).content, [{ type: 'text', text: 'clicks=2' }]);
      await view.evaluate(() => (window as unknown as { addTool(): void }).addTool());
      await host.event('view-tools-changed');
      assert.deepEqual((await list()).sort(), ['view_clicks', 'view_reset']);
      assert.deepEqual((await call('view_reset')).content, [{ type: 'text', text: 'reset' }]);
      assert.deepEqual((await call('view_clicks')).content, [{ type: 'text', text: 'clicks=0' }]);
      await host.screenshot('view-requests');
      assert.deepEqual(host.errors, []);
      await host.close();
    });

    test('cancelled downloads say isError; without the callbacks neither is offered nor served', async () => {
      const host = await bed.open(client);
      await host.mount({ tool: 'extras', args: {}, downloads: 'cancel' });
      await host.view.locator('#out').filter({ hasText: 'connected' }).waitFor();
      const view = await host.viewFrame();
      const caps = (await view.evaluate(() =>
        (window as unknown as { app: { getHostCapabilities(): Obj } }).app.getHostCapabilities(),
      )) as Obj;
      assert.deepEqual(caps.downloadFile, {});
      assert.equal(caps.sampling, undefined, 'no sampling callback, no sampling capability');
      const cancelled = (await view.evaluate(
        (c) => (window as unknown as { download(c: unknown): Promise<Obj> }).download(c),
        [FILE],
      )) as Obj;
      assert.deepEqual(cancelled, { isError: true });
      const refused = (await view.evaluate(() =>
        (window as unknown as { sample(t: string): Promise<Obj> }).sample('anyone?'),
      )) as Obj;
      assert.match(String(refused.thrown), /not found|-32601/i);
      assert.equal((await host.events()).filter((e) => e[0] === 'sampling').length, 0);
      await host.close();

      const plain = await bed.open(client);
      await plain.mount({ tool: 'extras', args: {} });
      await plain.view.locator('#out').filter({ hasText: 'connected' }).waitFor();
      const v2 = await plain.viewFrame();
      const caps2 = (await v2.evaluate(() =>
        (window as unknown as { app: { getHostCapabilities(): Obj } }).app.getHostCapabilities(),
      )) as Obj;
      assert.equal(caps2.downloadFile, undefined);
      const notServed = (await v2.evaluate(
        (c) => (window as unknown as { download(c: unknown): Promise<Obj> }).download(c),
        [FILE],
      )) as Obj;
      assert.match(String(notServed.thrown), /not found|-32601/i);
      await plain.close();
    });

    test('domain: one origin per declared domain, the default origin without one', async () => {
      const origins: Record<string, string> = {};
      for (const tool of ['on_a', 'on_a_again', 'on_b', 'extras']) {
        const host = await bed.open(client);
        await host.mount({ tool, args: {}, domainOrigins: true });
        // The handshake completes through the dedicated origin.
        await host.view.locator('#out').filter({ hasText: 'connected' }).waitFor();
        const src = await host.page.locator('#app iframe').getAttribute('src');
        origins[tool] = new URL(src!).origin;
        assert.deepEqual(host.errors, []);
        await host.close();
      }
      const port = new URL(bed.proxyUrl).port;
      assert.equal(origins.on_a, `http://${appDomainLabel('a.views.example')}.localhost:${port}`);
      assert.equal(origins.on_a_again, origins.on_a);
      assert.equal(origins.on_b, `http://${appDomainLabel('b.views.example')}.localhost:${port}`);
      assert.notEqual(origins.on_b, origins.on_a);
      assert.equal(origins.extras, new URL(bed.proxyUrl).origin);
    });
  },
);
