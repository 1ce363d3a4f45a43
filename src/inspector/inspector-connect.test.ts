/**
 * The inspector's own controls in Chromium: a server connected from the page (and a bad
 * entry refused there), reconnected (a new process), the request timeout setting, the
 * wire history exported as JSON, the servers copied as an `mcpServers` snippet, and the
 * colour theme, which lasts across reloads. Every wait is on the page, never on a clock.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { NO_CHROMIUM, closePage, openPage, runFromPage, shot } from '../test-support/inspector-harness.js';
import { EVERYTHING, launchChromium, startInspector } from '../test-support/inspector-harness.js';
import type { RunningInspector } from '../test-support/inspector-harness.js';

/** Generous: a loaded machine may take long to start a process; nothing here measures time. */
const SLOW = { timeout: 60_000 };

describe('inspector controls in Chromium', { skip: NO_CHROMIUM }, () => {
  let browser: Browser;
  let insp: RunningInspector;

  before(async () => {
    browser = (await launchChromium())!;
    // No server at all: the page is where one gets connected.
    insp = await startInspector({});
  });
  after(async () => {
    await insp?.close();
    await browser?.close();
  });

  test('connect, reconnect, timeout, export, copy config, theme', async () => {
    const page = await openPage(browser, insp.server.url);

    // Connect the official server-everything over stdio from the form; a taken name is refused there.
    const form = page.getByTestId('connect-form');
    await form.getByTestId('connect-name').fill('demo');
    await form.getByTestId('connect-target').fill(`"${process.execPath}" "${EVERYTHING}" stdio`);
    await form.getByTestId('connect-extra').fill('not a pair');
    await form.getByTestId('connect').click();
    await form.getByTestId('connect-result').filter({ hasText: 'Not NAME=value: not a pair' }).waitFor();
    await form.getByTestId('connect-extra').fill('MCPKIT_TEST_MARK=from the page');
    await form.getByTestId('connect').click();
    await form.getByTestId('connect-result').filter({ hasText: 'demo: ready' }).waitFor(SLOW);
    const card = page.locator('[data-server=demo]');
    await card.getByTestId('server-state').filter({ hasText: 'ready' }).waitFor(SLOW);
    assert.match(
      await runFromPage(page, 'echo', { message: 'connected from the page' }),
      /connected from the page/,
    );
    await page.click('[data-screen=servers]');
    await form.getByTestId('connect-name').fill('demo');
    await form.getByTestId('connect-target').fill('unused');
    await form.getByTestId('connect').click();
    await form
      .getByTestId('connect-result')
      .filter({ hasText: /already exists/ })
      .waitFor(SLOW);

    // Reconnect: a new process, the same name, tools back in the catalog.
    const pid = insp.session.host.health().find((h) => h.name === 'demo')!.pid!;
    await card.getByTestId('reconnect').click();
    await card.getByTestId('reconnect-result').filter({ hasText: 'reconnected: ready' }).waitFor(SLOW);
    const after = insp.session.host.health().find((h) => h.name === 'demo')!;
    assert.equal(after.state, 'ready');
    assert.notEqual(after.pid, pid);
    assert.match(await runFromPage(page, 'echo', { message: 'again' }), /again/);

    // The request timeout: a 60 s operation (one step, so no progress resets it) ends at the setting.
    await page.click('[data-screen=servers]');
    await page.getByTestId('timeout').fill('1000');
    await page.getByTestId('save-settings').click();
    await page.getByTestId('settings-result').filter({ hasText: '1000 ms' }).waitFor();
    const timedOut = await runFromPage(page, 'trigger-long-running-operation', { duration: 60, steps: 1 });
    assert.match(timedOut, /Refused or failed[\s\S]*tools\/call .* timed out after \d+ ms/);
    const callWire = insp.session
      .snapshot()
      .wire.find(
        (w) =>
          w.dir === 'out' &&
          (w.message as { method?: string; params?: { name?: string } }).params?.name ===
            'trigger-long-running-operation',
      );
    assert.ok(callWire, 'the call went out');
    await page.click('[data-screen=servers]');
    await page.getByTestId('timeout').fill('');
    await page.getByTestId('save-settings').click();
    await page.getByTestId('settings-result').filter({ hasText: 'own timeouts' }).waitFor();

    // The servers as an mcpServers snippet.
    await page.getByTestId('copy-config').click();
    const snippet = JSON.parse(await page.getByTestId('config-snippet').innerText()) as {
      mcpServers: Record<string, Record<string, unknown>>;
    };
    assert.deepEqual(snippet.mcpServers.demo, {
      command: process.execPath,
      args: [EVERYTHING, 'stdio'],
      env: { MCPKIT_TEST_MARK: 'from the page' },
    });

    // The wire history, exported as JSON: what the page shows, tools/call included.
    await page.click('[data-screen=wire]');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('wire-export').click(),
    ]);
    assert.match(download.suggestedFilename(), /^mcpkit-wire-.*\.json$/);
    const exported = JSON.parse(await readFile((await download.path())!, 'utf8')) as {
      messages: Array<{ server: string; dir: string; message: { method?: string } }>;
    };
    assert.ok(exported.messages.some((m) => m.server === 'demo' && m.message.method === 'tools/call'));
    assert.ok(exported.messages.some((m) => m.dir === 'in'));

    // The theme: system → light → dark, kept across a reload.
    const theme = page.getByTestId('theme');
    const background = (): Promise<string> =>
      page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    while (!/dark/.test(await theme.innerText())) await theme.click();
    await page.locator('html[data-theme=dark]').waitFor({ state: 'attached' });
    const dark = await background();
    await theme.click(); // → system
    await theme.click(); // → light
    await page.locator('html[data-theme=light]').waitFor({ state: 'attached' });
    assert.notEqual(await background(), dark);
    await theme.click(); // → dark
    await page.reload();
    await page.getByTestId('connection').filter({ hasText: /ready/ }).waitFor(SLOW);
    await page.locator('html[data-theme=dark]').waitFor({ state: 'attached' });
    assert.match(await page.getByTestId('theme').innerText(), /dark/);
    await shot(page, 'servers-dark');
    await closePage(page);
  });
});
