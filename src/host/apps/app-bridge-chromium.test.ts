/**
 * The app bridge in real Chromium with mcpkit's own demo app: the host page and the
 * sandbox proxy on two loopback origins, the whole handshake, the tool input and result
 * reaching the view, and the view's button calling the app-only tool back through the host.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '../../client/client.js';
import { createEverythingServer } from '../../demo/everything-server.js';
import type { McpServer } from '../../server/server.js';
import { AppsTestBed, appsClientOf, SKIP_CHROMIUM } from '../../test-support/apps-harness.js';

describe('AppBridge in Chromium: the demo counter app', { skip: SKIP_CHROMIUM }, () => {
  let bed: AppsTestBed;
  let server: McpServer;
  let client: Client;

  before(async () => {
    // This suite's proxy takes the host origin from its URL (?host=), the others' have it baked in.
    bed = await AppsTestBed.start({ bakeHostOrigin: false });
    server = createEverythingServer({ stepMs: 5 });
    client = await appsClientOf(server);
  });

  after(async () => {
    await client?.close();
    await server?.close();
    await bed?.close();
  });

  test('renders, gets the tool result, and calls its app-only tool through the host', async () => {
    const host = await bed.open(client);
    const mounted = await host.mount({
      tool: 'show_counter',
      args: { start: 5 },
      hostContext: { theme: 'dark', locale: 'en-GB', containerDimensions: { maxHeight: 400 } },
    });
    assert.equal(mounted.appInfo.name, 'mcpkit-counter');
    await host.view.locator('#status').filter({ hasText: 'result received' }).waitFor();
    assert.equal(await host.view.locator('#count').textContent(), '5');
    await host.view.locator('#add').click();
    await host.view.locator('#status').filter({ hasText: 'counter_add answered' }).waitFor();
    assert.equal(await host.view.locator('#count').textContent(), '6');
    const height = await host.page.locator('#app iframe').evaluate((f: HTMLIFrameElement) => f.style.height);
    assert.match(height, /^\d+px$/, 'the size-changed notification sized the iframe');
    await host.screenshot('demo-counter');
    assert.deepEqual(host.errors, []);
    await host.close();
  });
});
