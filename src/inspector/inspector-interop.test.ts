/**
 * The inspector in Chromium against every transport (stdio, Streamable HTTP, legacy
 * HTTP+SSE) and both eras of our demo server, and the official React example app. One
 * browser serves every test of the file. server-everything has a file of its own
 * (inspector-everything.test.ts), so each file stays well within the per-file time limit.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { NO_CHROMIUM, closePage, openPage, runFromPage, shot } from '../test-support/inspector-harness.js';
import { DEMO_STDIO, launchChromium, startInspector } from '../test-support/inspector-harness.js';
import type { RunningInspector } from '../test-support/inspector-harness.js';
import { startDemoProcess } from '../test-support/demo-process.js';
import type { DemoProcess } from '../test-support/demo-process.js';

describe('inspector interop in Chromium', { skip: NO_CHROMIUM }, () => {
  let browser: Browser;

  before(async () => {
    browser = (await launchChromium())!;
  });
  after(() => browser?.close());

  describe('every transport and both eras', () => {
    let demo: DemoProcess;
    let mcpUrl: string;

    before(async () => {
      demo = await startDemoProcess();
      mcpUrl = demo.url;
    });
    after(() => demo?.stop());

    const cases: Array<[string, () => Record<string, unknown>, RegExp]> = [
      [
        'stdio, legacy era',
        () => ({ command: process.execPath, args: [DEMO_STDIO], era: 'legacy' }),
        /legacy.*2025-11-25/,
      ],
      ['Streamable HTTP, modern era', () => ({ url: mcpUrl, era: 'modern' }), /modern.*2026-07-28/],
      ['Streamable HTTP, legacy era', () => ({ url: mcpUrl, era: 'legacy' }), /legacy.*2025-11-25/],
      ['Streamable HTTP, auto era', () => ({ url: mcpUrl }), /modern.*2026-07-28/],
      [
        'legacy HTTP+SSE',
        () => ({ type: 'sse', url: mcpUrl.replace(/\/mcp$/, '/sse'), era: 'legacy' }),
        /legacy.*2025-11-25/,
      ],
    ];
    for (const [name, entry, era] of cases) {
      test(name, async () => {
        const insp: RunningInspector = await startInspector({ demo: entry() });
        try {
          const page = await openPage(browser, insp.server.url);
          assert.match(await page.getByTestId('server-era').innerText(), era);
          assert.ok((await runFromPage(page, 'echo', { text: `over ${name}` })).includes(`over ${name}`));
          const elicited = runFromPage(page, 'test_elicitation', { message: 'name?' });
          const q = page.locator('[data-question=elicit-form]');
          await q.locator('[data-path=username]').fill('u');
          await q.locator('[data-path=email]').fill('u@example.com');
          await q.locator('[data-answer=accept]').click();
          assert.match(await elicited, /action=accept/);
          await closePage(page);
        } finally {
          await insp.close();
        }
      });
    }
  });

  test('MCP Apps: the official React example renders inline and gets its result', async () => {
    // The package exports only its server module; its bin sits beside it in dist/.
    const react = join(
      dirname(fileURLToPath(import.meta.resolve('@modelcontextprotocol/server-basic-react'))),
      'index.js',
    );
    const insp = await startInspector({ react: { command: process.execPath, args: [react, '--stdio'] } });
    try {
      const page = await openPage(browser, insp.server.url);
      const text = await runFromPage(page, 'get-time', {});
      const time = /\d{4}-\d\d-\d\dT[\d:.]+Z/.exec(text)![0];
      await page.getByTestId('app-status').filter({ hasText: 'ready' }).waitFor();
      const view = page.frameLocator('.app-frame iframe').frameLocator('iframe');
      await view.getByText(time).waitFor();
      await view.getByRole('button', { name: 'Get Server Time' }).click();
      await view.getByText(time).waitFor({ state: 'detached' });
      await shot(page, 'app-react');
      await closePage(page);
    } finally {
      await insp.close();
    }
  });
});
