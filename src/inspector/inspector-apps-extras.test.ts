/**
 * MCP App requests beyond the basics, through the inspector in Chromium, with a view built
 * with the official `App` class: the view framed on its declared domain's own origin, a
 * file it offers downloaded by the page, its sampling request answered by the person at
 * the page, and its own tool called from the page.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { appDomainLabel } from '../host/apps/app-domain.js';
import { officialAppHtml } from '../test-support/apps-harness.js';
import { McpServer, registerApp } from '../server/index.js';
import { serve } from '../serve/index.js';
import type { RunningServer } from '../serve/index.js';
import { NO_CHROMIUM, closePage, openPage, runFromPage, shot } from '../test-support/inspector-harness.js';
import { launchChromium, startInspector } from '../test-support/inspector-harness.js';
import type { RunningInspector } from '../test-support/inspector-harness.js';

const VIEW = `
const app = new ExtApps.App({ name: 'extras-view', version: '1.0.0' });
let clicks = 0;
app.registerTool('view_clicks', { description: 'How often the button was clicked' }, async () => ({
  content: [{ type: 'text', text: 'clicks=' + clicks }],
}));
await app.connect();
const out = document.getElementById('out');
const button = (id, label, run) => {
  const b = document.createElement('button');
  b.id = id;
  b.textContent = label;
  b.onclick = async () => {
    clicks++;
    try { out.textContent = id + ': ' + JSON.stringify(await run()); }
    catch (e) { out.textContent = id + ' failed: ' + e.message; }
  };
  document.body.append(b);
};
button('dl', 'Download', () => app.downloadFile({ contents: [{ type: 'resource',
  resource: { uri: 'file:///report.json', mimeType: 'application/json', text: '{"answer":42}' } }] }));
button('ask', 'Ask the model', async () => {
  const r = await app.createSamplingMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'What is six times seven?' } }], maxTokens: 10 });
  return r.content.text;
});
out.textContent = 'connected';
`;

describe(
  'inspector: MCP App downloads, sampling, view tools and domain in Chromium',
  { skip: NO_CHROMIUM },
  () => {
    let browser: Browser;
    let web: RunningServer;
    let insp: RunningInspector;

    before(async () => {
      browser = (await launchChromium())!;
      const server = new McpServer({ name: 'extras', version: '1.0.0' });
      registerApp(
        server,
        {
          name: 'show_extras',
          description: 'A view that downloads, samples and has a tool of its own',
          resourceUri: 'ui://extras/view.html',
          domain: 'extras.views.example',
          html: officialAppHtml(VIEW),
        },
        () => ({ content: [{ type: 'text', text: 'shown' }] }),
      );
      web = await serve(server, { port: 0 });
      insp = await startInspector({ extras: { url: web.url } });
    });
    after(async () => {
      await insp?.close();
      await web?.close();
      await browser?.close();
    });

    test('the view downloads a file, asks for a sample, and its tool is called from the page', async () => {
      const page = await openPage(browser, insp.server.url);
      await runFromPage(page, 'show_extras', {});
      const slot = page.getByTestId('app-slot').first();
      await slot.getByTestId('app-status').filter({ hasText: 'ready' }).waitFor();
      // Its declared domain has an origin of its own.
      const src = await slot.locator('.app-frame iframe').getAttribute('src');
      assert.match(
        new URL(src!).hostname,
        new RegExp(`^${appDomainLabel('extras.views.example')}\\.localhost$`),
      );
      const view = page.frameLocator('.app-frame iframe').frameLocator('iframe');
      const out = view.locator('#out');
      await out.filter({ hasText: 'connected' }).waitFor();

      // ui/download-file: the page saves what the view offers.
      const [file] = await Promise.all([page.waitForEvent('download'), view.locator('#dl').click()]);
      assert.equal(file.suggestedFilename(), 'report.json');
      assert.deepEqual(JSON.parse(await readFile((await file.path())!, 'utf8')), { answer: 42 });
      await out.filter({ hasText: 'dl: {}' }).waitFor();

      // sampling/createMessage from the view: the person at the page types the model's answer.
      await view.locator('#ask').click();
      const asked = slot.getByTestId('app-sampling');
      assert.match(await asked.innerText(), /What is six times seven\?/);
      await asked.getByTestId('app-sampling-reply').fill('forty-two');
      await asked.getByTestId('app-sampling-send').click();
      await out.filter({ hasText: 'ask: "forty-two"' }).waitFor();

      // The view's own tool, called from the page.
      await slot.locator('[data-view-tool=view_clicks]').click();
      await slot.locator('[data-app-event=view-tool-result]').filter({ hasText: 'clicks=2' }).waitFor();
      await shot(page, 'app-extras');
      await closePage(page);
    });
  },
);
