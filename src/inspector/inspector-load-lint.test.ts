/**
 * The Load and Lint views in Chromium, against four servers: the lint fixture over stdio
 * (with a server.json beside it) and the demo server over Streamable HTTP, each in both
 * eras. Load runs draw latency over time with errors marked and stop on the Stop button;
 * Lint shows each server's findings by severity, the server.json and Server Card checks
 * included. And the keyboard walk: every screen reached and opened with the keyboard only,
 * focus always visible. Every screenshot is checked (size, not blank, contrast).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { startDemoProcess } from '../test-support/demo-process.js';
import type { DemoProcess } from '../test-support/demo-process.js';
import {
  NO_CHROMIUM,
  checkedShot,
  closePage,
  launchChromium,
  openPage,
  startInspector,
} from '../test-support/inspector-harness.js';
import type { RunningInspector } from '../test-support/inspector-harness.js';

const FIXTURE = fileURLToPath(new URL('../test-support/lint-fixture-server.js', import.meta.url));
const SERVERS = ['stdio-legacy', 'stdio-modern', 'http-legacy', 'http-modern'] as const;

describe('inspector Load and Lint views in Chromium', { skip: NO_CHROMIUM }, () => {
  let browser: Browser;
  let demo: DemoProcess;
  let insp: RunningInspector;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcpkit-lint-view-'));
    // A server.json the registry would refuse: its name is not reverse-DNS.
    writeFileSync(join(dir, 'server.json'), JSON.stringify({ name: 'not a reverse-dns name' }));
    demo = await startDemoProcess();
    const stdio = (era: string) => ({ command: process.execPath, args: [FIXTURE], cwd: dir, era });
    insp = await startInspector({
      'stdio-legacy': stdio('legacy'),
      'stdio-modern': stdio('modern'),
      'http-legacy': { type: 'http', url: demo.url, era: 'legacy' },
      'http-modern': { type: 'http', url: demo.url, era: 'modern' },
    });
    browser = (await launchChromium())!;
  });
  after(async () => {
    await browser?.close();
    await insp?.close();
    await demo?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function allReady(page: Page): Promise<void> {
    await page
      .getByTestId('connection')
      .filter({ hasText: `${SERVERS.length}/${SERVERS.length} ready` })
      .waitFor();
  }

  async function load(
    page: Page,
    server: string,
    tool: string,
    how: { calls: number } | { seconds: number },
    clients: number,
  ): Promise<void> {
    await page.getByTestId('load-server').selectOption(server);
    await page.getByTestId('load-tool').selectOption(tool);
    await page.getByTestId('load-clients').fill(String(clients));
    if ('calls' in how) {
      await page.getByTestId('load-mode-calls').check();
      await page.getByTestId('load-amount').fill(String(how.calls));
    } else {
      await page.getByTestId('load-mode-duration').check();
      await page.getByTestId('load-amount').fill(String(how.seconds));
    }
    await page.getByTestId('load-start').click();
  }

  const summaryOf = async (page: Page): Promise<string> => {
    await page.locator('[data-testid=load-run][data-state=done]').waitFor();
    return page.getByTestId('load-summary').innerText();
  };

  test('Load: a counted run on each server draws p50/p95 over time, errors marked and counted by code', async () => {
    const page = await openPage(browser, insp.server.url);
    await allReady(page);
    await page.click('[data-screen=load]');
    for (const era of ['legacy', 'modern'] as const) {
      // `flaky` fails with JSON-RPC -32001 every other call (per server process: per client).
      await load(page, `stdio-${era}`, 'flaky', { calls: 40 }, 2);
      const text = await summaryOf(page);
      assert.match(text, /40 calls in [\d.]+ s from 2 clients/, text);
      assert.match(text, /calls\/s/);
      // Each client is its own process, with its own count: 20 errors, or 19 when the split is odd.
      const failed = Number(/-32001\s+(\d+)/.exec(await page.getByTestId('load-errors').innerText())?.[1]);
      assert.ok(failed === 20 || failed === 19, `errors by code: -32001 × ${failed}`);
      assert.match(text, new RegExp(`ok ${40 - failed} · isError 0`));
      assert.ok((await page.getByTestId('load-error-mark').count()) >= 1, 'error buckets are marked');
      assert.ok(Number(await page.getByTestId('load-chart').getAttribute('data-points')) >= 1);
      assert.match(String(await page.getByTestId('load-p50').getAttribute('points')), /^[\d.]+,[\d.]+/);

      // Over HTTP: isError results are counted apart (no JSON-RPC error).
      await load(page, `http-${era}`, 'test_error_handling', { calls: 12 }, 3);
      const http = await summaryOf(page);
      assert.match(http, /12 calls .* from 3 clients/, http);
      assert.equal(await page.getByTestId('load-tool-errors').innerText(), '12');
      assert.equal(await page.getByTestId('load-errors').count(), 0);
      assert.ok((await page.getByTestId('load-error-mark').count()) >= 1);

      await load(page, `http-${era}`, 'test_simple_text', { calls: 30 }, 2);
      assert.match(await summaryOf(page), /ok 30 · isError 0/);
    }
    await checkedShot(page, 'load', {
      docs: 'load',
      drawn: [page.getByTestId('load-chart'), page.getByTestId('load-summary')],
      contrast: [{ element: page.locator('nav button.on'), label: 'the current tab' }],
    });
    await closePage(page);
  });

  test('Load: Stop ends a timed run early, and the report says it was interrupted', async () => {
    const page = await openPage(browser, insp.server.url);
    await allReady(page);
    await page.click('[data-screen=load]');
    await load(page, 'http-modern', 'test_simple_text', { seconds: 120 }, 2);
    // The chart fills from the event stream while the run goes.
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid=load-chart]')?.getAttribute('data-points')) >= 3,
    );
    assert.equal(await page.getByTestId('load-start').isDisabled(), true, 'one run at a time');
    await page.getByTestId('load-stop').click();
    await summaryOf(page);
    assert.equal(await page.getByTestId('load-stopped-by').innerText(), 'interrupt');
    assert.equal(await page.getByTestId('load-stop').isDisabled(), true);
    await closePage(page);
  });

  test('Lint: findings per server by severity, server.json over stdio and the Server Card over HTTP', async () => {
    const page = await openPage(browser, insp.server.url);
    await allReady(page);
    await page.click('[data-screen=lint]');
    await page.getByTestId('lint-run').click();
    for (const name of SERVERS) {
      const section = page.locator(`[data-testid=lint-server][data-server="${name}"]`);
      await section.getByTestId('lint-counts').waitFor();
      const rules = await section
        .getByTestId('lint-finding')
        .evaluateAll((rows) =>
          rows.map((r) => `${r.getAttribute('data-severity')} ${r.getAttribute('data-rule')}`),
        );
      if (name.startsWith('stdio')) {
        assert.match(await section.innerText(), /5 tools, 0 resources/);
        // Portability: weather.get's oneOf is not OpenAI strict-mode material; the long name is over the limit.
        assert.ok(
          rules.some((r) => /^error (openai|gemini|claude)\/name/.test(r)),
          rules.join('\n'),
        );
        assert.ok(
          rules.some((r) => r.startsWith('error server-json/')),
          rules.join('\n'),
        );
        // Errors come first.
        assert.equal(rules[0]!.split(' ')[0], 'error');
      } else {
        assert.match(await section.innerText(), /49 tools/);
        assert.ok(
          rules.some((r) => /card\//.test(r)),
          rules.join('\n'),
        );
      }
    }
    // The filter shows only the errors.
    const stdio = page.locator('[data-testid=lint-server][data-server="stdio-modern"]');
    await stdio.getByRole('button', { name: 'errors only' }).click();
    const shown = await stdio
      .getByTestId('lint-finding')
      .evaluateAll((r) => r.map((x) => x.getAttribute('data-severity')));
    assert.ok(shown.length > 0 && shown.every((s) => s === 'error'), shown.join());
    // Four servers' findings make a very long page: the viewport, with the checked section in it.
    await stdio.locator('h2').scrollIntoViewIfNeeded();
    await checkedShot(page, 'lint', {
      fullPage: false,
      docs: 'lint',
      drawn: [stdio.locator('h2'), stdio.getByTestId('lint-finding').first()],
      contrast: [{ element: stdio.getByTestId('lint-finding').first(), label: 'a finding row' }],
    });
    await closePage(page);
  });

  test('keyboard only: every screen reached with Tab, opened with Enter or Space, focus visible', async () => {
    const page = await openPage(browser, insp.server.url);
    await allReady(page);
    const screens = await page
      .locator('nav button[data-screen]')
      .evaluateAll((b) => b.map((x) => x.getAttribute('data-screen')!));
    assert.ok(screens.length >= 9, screens.join());
    /** Presses Tab until the focus is on `selector`; fails if the tab order never gets there. */
    const tabTo = async (selector: string, max = 300): Promise<void> => {
      for (let i = 0; i < max; i++) {
        if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
        await page.keyboard.press('Tab');
      }
      assert.fail(`${selector} is not reachable with Tab`);
    };
    const focusRing = (): Promise<{ style: string; width: number }> =>
      page.evaluate(() => {
        const s = getComputedStyle(document.activeElement!);
        return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
      });
    for (const [i, screen] of screens.entries()) {
      await tabTo(`nav button[data-screen="${screen}"]`);
      const ring = await focusRing();
      assert.ok(
        ring.style !== 'none' && ring.width >= 2,
        `${screen}: focus visible (${JSON.stringify(ring)})`,
      );
      await page.keyboard.press(i % 2 === 0 ? 'Enter' : 'Space');
      assert.equal(
        await page.locator(`nav button[data-screen="${screen}"]`).getAttribute('aria-current'),
        'page',
        `${screen} opened from the keyboard`,
      );
      await checkedShot(page, `keyboard-${screen}`, {
        contrast: [{ element: page.locator('nav button.on'), label: `the ${screen} tab` }],
      });
    }
    // Operable, not only reachable: a load run and a lint run started from the keyboard.
    await tabTo('nav button[data-screen="load"]');
    await page.keyboard.press('Enter');
    await tabTo('[data-testid=load-server]');
    await page.keyboard.press('Tab');
    await tabTo('[data-testid=load-start]');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=load-run][data-state=done]').waitFor();
    await tabTo('nav button[data-screen="lint"]');
    await page.keyboard.press('Space');
    await tabTo('[data-testid=lint-run]');
    await page.keyboard.press('Space');
    await page
      .locator('[data-testid=lint-server][data-server="stdio-legacy"] [data-testid=lint-counts]')
      .waitFor();
    await closePage(page);
  });
});
