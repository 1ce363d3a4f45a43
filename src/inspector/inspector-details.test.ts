/**
 * The details users notice in the inspector, checked in Chromium by measuring the page:
 * servers and the last connection remembered (without headers), the timeout settings
 * passed through, tool names beside titles, binary content with its type and size (a 1×1
 * PNG at its own size), front matter as a table, resources and templates counted apart,
 * a 200-character server name kept inside its card, and the Run button's contrast in both
 * themes. Every wait is on the page, never on a clock.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { stat } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { McpServer } from '../server/server.js';
import { serve } from '../serve/index.js';
import type { RunningServer } from '../serve/index.js';
import { NO_CHROMIUM, closePage, openPage, runFromPage, shot } from '../test-support/inspector-harness.js';
import { checkedShot, launchChromium, startInspector } from '../test-support/inspector-harness.js';
import type { RunningInspector } from '../test-support/inspector-harness.js';

/** A 1×1 PNG and an 8-sample WAV: real files, so the page decodes them. */
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP4z8AAAAMBAQD3A0FDAAAAAElFTkSuQmCC';
const WAV = 'UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAoIBggKCAYA==';
const SKILL = `---
name: pdf-tools
description: "Fill and merge PDF forms"
tags:
  - pdf
  - forms
---
# PDF tools

Use **pdftk** for merging.
`;
const FLOOD = 10_000;
const HUGE = 5 * 1024 * 1024;
/**
 * The page must keep answering. Measured on the 2-core test machine under a load average of
 * 17: without the cut of long results, one task and the round trip took 21 s; cut at 100,000
 * characters, round trips took up to 1.8 s and one task up to 1.8 s under load (layout time
 * grows with the length), so the cut is at 20,000. A round trip over 5 s or a task over 1.5 s
 * is a frozen page, well clear of that noise.
 */
const RESPONSIVE_MS = 5000;
const LONGEST_TASK_MS = 1500;
const LONG_NAME = `server-${'x'.repeat(193)}`;
const SECRET = 'Bearer do-not-store-this-token';
/** Time between the progress reports of `reporter` (the page's timeout is 1000 ms, so 800 ms to spare). */
const STEP_MS = 200;

function detailsServer(): McpServer {
  const server = new McpServer({ name: 'details', version: '1.0.0' });
  server.tool({ name: 'shout', title: 'Shout it', description: 'Upper-cases its input' }, () => 'SHOUTED');
  server.tool({ name: 'plain_tool', description: 'Has no title' }, () => 'plain');
  server.tool(
    {
      name: 'reporter',
      description: 'Reports progress every 200 ms, `steps` times, then answers',
      input: { type: 'object', properties: { steps: { type: 'integer' } }, required: ['steps'] },
    },
    async (args, ctx) => {
      const steps = Number(args.steps);
      for (let i = 1; i <= steps; i++) {
        await new Promise((r) => setTimeout(r, STEP_MS));
        if (ctx.signal.aborted) throw new Error('cancelled');
        ctx.progress(i, steps);
      }
      return `reported ${steps} times`;
    },
  );
  server.resource({ uri: 'test://pixel.png', name: 'Pixel', mimeType: 'image/png' }, (uri) => [
    { uri, mimeType: 'image/png', blob: PIXEL },
  ]);
  server.resource({ uri: 'test://beep.wav', name: 'Beep', mimeType: 'audio/wav' }, (uri) => [
    { uri, mimeType: 'audio/wav', blob: WAV },
  ]);
  server.resource({ uri: 'test://skill.md', name: 'Skill', mimeType: 'text/markdown' }, (uri) => [
    { uri, mimeType: 'text/markdown', text: SKILL },
  ]);
  for (const t of ['a', 'b'])
    server.resourceTemplate({ uriTemplate: `test://${t}/{id}`, name: `Template ${t}` }, (uri) => [
      { uri, text: t },
    ]);
  server.tool({ name: 'flood', description: `Sends ${FLOOD} log notifications, then answers` }, (_a, ctx) => {
    for (let i = 0; i < FLOOD; i++) ctx.log('info', `flood ${i}`);
    return `sent ${FLOOD}`;
  });
  server.tool(
    { name: 'huge', description: 'Answers 5 MB of text' },
    () => `${'0123456789'.repeat(HUGE / 10)}`,
  );
  server.prompt({ name: 'with_front_matter', description: 'Its text starts with front matter' }, () => [
    { role: 'user', content: { type: 'text', text: SKILL } },
  ]);
  return server;
}

/** WCAG 2 contrast ratio of two `rgb()`/`rgba()` colours as getComputedStyle gives them. */
function contrast(a: string, b: string): number {
  const lum = (c: string): number => {
    const [r, g, bl] = c
      .match(/[\d.]+/g)!
      .slice(0, 3)
      .map(Number) as [number, number, number];
    const lin = (v: number): number => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(bl);
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

async function theme(page: Page, want: 'light' | 'dark'): Promise<void> {
  const button = page.getByTestId('theme');
  for (let i = 0; i < 3 && (await button.innerText()) !== `theme: ${want}`; i++) await button.click();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), want);
}

describe('inspector details in Chromium', { skip: NO_CHROMIUM }, () => {
  let browser: Browser;
  let web: RunningServer;
  let empty: RunningServer;
  let insp: RunningInspector;

  before(async () => {
    browser = (await launchChromium())!;
    web = await serve(detailsServer(), { port: 0 });
    empty = await serve(new McpServer({ name: 'empty', version: '1.0.0' }), { port: 0 });
    insp = await startInspector({ details: { url: web.url }, [LONG_NAME]: { url: empty.url } });
  });
  after(async () => {
    await insp?.close();
    await web?.close();
    await empty?.close();
    await browser?.close();
  });

  test('tool names beside titles, in monospace; resources and templates counted apart', async () => {
    const page = await openPage(browser, insp.server.url);
    await page.getByTestId('count-tools').filter({ hasText: '5' }).waitFor();
    await page.click('[data-screen=tools]');
    const titled = page.locator('[data-tool=shout]');
    assert.equal(await titled.locator('.name').innerText(), 'Shout it');
    const name = titled.getByTestId('tool-name');
    assert.equal(await name.innerText(), 'shout');
    assert.match(await name.evaluate((e) => getComputedStyle(e).fontFamily), /mono/i);
    // Without a title the name is the label, still in monospace, and not shown twice.
    assert.equal(await page.locator('[data-tool=plain_tool]').getByTestId('tool-name').count(), 1);
    assert.equal(await page.getByTestId('count-resources').innerText(), '3');
    assert.equal(await page.getByTestId('count-templates').innerText(), '2');
    assert.match(
      await page.locator('[data-screen=resources]').innerText(),
      /Resources\s*3\s*·\s*Templates\s*2/,
    );
    await closePage(page);
  });

  test('a 1×1 PNG at its own size with type, size and download; audio with its type and size', async () => {
    const page = await openPage(browser, insp.server.url);
    await page.click('[data-screen=resources]');
    await page.click('[data-resource="test://pixel.png"] button.link');
    const detail = page.getByTestId('resource-detail');
    const img = detail.locator('img.media');
    await img.waitFor();
    await page.waitForFunction(() => document.querySelector<HTMLImageElement>('img.media')?.complete);
    const box = (await img.boundingBox())!;
    const column = (await detail.boundingBox())!;
    assert.ok(box.width <= 2 && box.height <= 2, `natural size, not stretched: ${box.width}×${box.height}`);
    assert.ok(column.width > 200, 'the column it used to be stretched to');
    assert.equal(await img.evaluate((e) => getComputedStyle(e).imageRendering), 'pixelated');
    assert.equal(await detail.getByTestId('binary-type').innerText(), 'image/png');
    assert.equal(await detail.getByTestId('binary-size').innerText(), '69 bytes');
    assert.equal(Buffer.from(PIXEL, 'base64').length, 69, 'the size decoded, not the base64 text’s');
    const [png] = await Promise.all([
      page.waitForEvent('download'),
      detail.getByTestId('binary-download').click(),
    ]);
    assert.equal(png.suggestedFilename(), 'pixel.png');

    await page.click('[data-resource="test://beep.wav"] button.link');
    await detail.locator('audio').waitFor();
    assert.equal(await detail.getByTestId('binary-type').innerText(), 'audio/wav');
    assert.equal(
      await detail.getByTestId('binary-size').innerText(),
      `${Buffer.from(WAV, 'base64').length} bytes`,
    );
    // The link is reachable from the keyboard: focus it and press Enter.
    const link = detail.getByTestId('binary-download');
    await link.focus();
    const [wav] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    assert.equal(wav.suggestedFilename(), 'beep.wav');
    await shot(page, 'details-binary');
    await closePage(page);
  });

  test('front matter of a markdown resource and a prompt is a table, the rest rendered', async () => {
    const page = await openPage(browser, insp.server.url);
    await page.click('[data-screen=resources]');
    await page.click('[data-resource="test://skill.md"] button.link');
    const table = page.getByTestId('resource-detail').getByTestId('front-matter');
    await table.waitFor();
    const rows = await table
      .locator('tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => (c as HTMLElement).innerText)));
    assert.deepEqual(rows, [
      ['name', 'pdf-tools'],
      ['description', 'Fill and merge PDF forms'],
      ['tags', 'pdf, forms'],
    ]);
    const md = page.getByTestId('resource-detail').locator('.markdown');
    assert.equal(await md.locator('h3').innerText(), 'PDF tools');
    assert.doesNotMatch(await md.innerText(), /---|name:/);

    await page.click('[data-screen=prompts]');
    await page.click('[data-prompt=with_front_matter]');
    await page.getByTestId('get-prompt').click();
    const inPrompt = page.getByTestId('prompt-result').getByTestId('front-matter');
    await inPrompt.waitFor();
    assert.match(await inPrompt.innerText(), /description\s+Fill and merge PDF forms/);
    await closePage(page);
  });

  test('a 200-character server name is cut with an ellipsis inside its card, whole in its title', async () => {
    const page = await openPage(browser, insp.server.url);
    const card = page.locator(`[data-server="${LONG_NAME}"]`);
    await card.waitFor();
    const m = await card.evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
    assert.ok(m.scroll <= m.client, `card ${m.scroll} <= ${m.client}`);
    const name = card.getByTestId('server-name');
    assert.equal(await name.getAttribute('title'), LONG_NAME);
    const n = await name.evaluate((e) => ({
      scroll: e.scrollWidth,
      client: e.clientWidth,
      overflow: getComputedStyle(e).textOverflow,
    }));
    assert.equal(n.overflow, 'ellipsis');
    assert.ok(n.scroll > n.client, 'the name is cut, not wrapped');
    // Its neighbour cards keep the grid's width: the long name did not widen its column.
    const widths = await page
      .locator('.cards > .card')
      .evaluateAll((cards) => cards.map((c) => Math.round(c.getBoundingClientRect().width)));
    assert.ok(Math.max(...widths) <= 1280, `cards fit the viewport: ${widths.join(', ')}`);
    await closePage(page);
  });

  test('the Run button and the current tab have 4.5:1 contrast in both themes', async () => {
    const page = await openPage(browser, insp.server.url);
    await page.click('[data-screen=tools]');
    await page.click('[data-tool=shout]');
    const run = page.getByTestId('run');
    for (const t of ['light', 'dark'] as const) {
      await theme(page, t);
      for (const el of [run, page.locator('nav button.on')]) {
        const { fg, bg } = await el.evaluate((e) => {
          const s = getComputedStyle(e);
          return { fg: s.color, bg: s.backgroundColor };
        });
        const ratio = contrast(fg, bg);
        assert.ok(ratio >= 4.5, `${t}: ${fg} on ${bg} is ${ratio.toFixed(2)}:1`);
      }
      // The same, measured on the pixels drawn: the label's strokes against the button's fill.
      await page.mouse.move(0, 0);
      await checkedShot(page, `details-${t}-run`, {
        contrast: [
          { element: run, label: `${t} Run button` },
          { element: page.locator('nav button.on'), label: `${t} current tab` },
        ],
      });
    }
    await closePage(page);
  });

  test('reset on progress and a maximum total time reach the request', async () => {
    const page = await openPage(browser, insp.server.url);
    const settings = page.getByTestId('settings');
    const save = async (timeout: string, reset: boolean, total: string, note: RegExp): Promise<void> => {
      await page.click('[data-screen=servers]');
      await settings.getByTestId('timeout').fill(timeout);
      await settings.getByTestId('reset-on-progress').setChecked(reset);
      await settings.getByTestId('max-total-timeout').fill(total);
      // Saved from the keyboard: Enter in a field submits the form.
      await settings.getByTestId('max-total-timeout').press('Enter');
      await settings.getByTestId('settings-result').filter({ hasText: note }).waitFor();
    };
    // 10 steps of 200 ms: 2 s in all, never 1 s without progress.
    await save('1000', false, '', /after 1000 ms$/);
    assert.match(await runFromPage(page, 'reporter', { steps: 10 }), /timed out after \d+ ms/);
    await save('1000', true, '', /progress restarts the timeout/);
    assert.match(await runFromPage(page, 'reporter', { steps: 10 }), /reported 10 times/);
    await save('1000', true, '1500', /at most 1500 ms in all/);
    const capped = await runFromPage(page, 'reporter', { steps: 10 });
    const ms = Number(/timed out after (\d+) ms/.exec(capped)?.[1]);
    // The message measures with Date.now(), the timer with libuv's loop clock, cached when the
    // loop turn began: the two can differ by a millisecond, so 1499 is a timer that was on time.
    assert.ok(ms >= 1490 && ms < 2000, `the total bound ended it: ${capped}`);
    // The settings last across a reload.
    await page.reload();
    await page.click('[data-screen=servers]');
    assert.equal(await settings.getByTestId('reset-on-progress').isChecked(), true);
    assert.equal(await settings.getByTestId('max-total-timeout').inputValue(), '1500');
    await closePage(page);
  });

  test('servers connected from the page are remembered without headers, and can be forgotten', async () => {
    const page = await openPage(browser, insp.server.url);
    const form = page.getByTestId('connect-form');
    await form.getByTestId('connect-name').fill('again');
    await form.getByTestId('connect-transport').selectOption('http');
    await form.getByTestId('connect-target').fill(web.url);
    await form.getByTestId('connect-extra').fill(`Authorization: ${SECRET}`);
    await form.getByTestId('connect').click();
    await form.getByTestId('connect-result').filter({ hasText: 'again: ready' }).waitFor();
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    assert.doesNotMatch(stored, /do-not-store-this-token|Authorization/);
    assert.match(stored, /again/);

    // A reload starts the form from the last connection, headers left empty.
    await page.reload();
    await page.getByTestId('connection').filter({ hasText: /ready/ }).waitFor();
    assert.equal(await form.getByTestId('connect-name').inputValue(), 'again');
    assert.equal(await form.getByTestId('connect-transport').inputValue(), 'http');
    assert.equal(await form.getByTestId('connect-target').inputValue(), web.url);
    assert.equal(await form.getByTestId('connect-extra').inputValue(), '');
    const saved = form.getByTestId('saved-servers');
    assert.deepEqual(await saved.locator('li').evaluateAll((l) => l.map((x) => x.dataset.saved)), ['again']);

    // Choosing a saved one fills the form; forgetting it, from the keyboard, empties the store.
    await form.getByTestId('connect-name').fill('');
    await saved.getByTestId('use-saved').focus();
    await page.keyboard.press('Enter');
    assert.equal(await form.getByTestId('connect-name').inputValue(), 'again');
    await saved.getByRole('button', { name: 'Forget again' }).focus();
    await page.keyboard.press('Space');
    await saved.waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => localStorage.getItem('mcpkit-inspector-servers')), null);
    await closePage(page);
  });

  test('10,000 notifications and a 5 MB result: the page stays responsive, long content cut with a way to see it whole', async () => {
    const page = await openPage(browser, insp.server.url);
    // The page's long main-thread tasks (over 50 ms), as Chromium reports them.
    await page.evaluate(() => {
      const w = globalThis as { longTasks?: number[] };
      w.longTasks = [];
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) w.longTasks!.push(Math.round(e.duration));
      }).observe({ type: 'longtask' });
    });
    const longest = (): Promise<number> =>
      page.evaluate(() => Math.max(0, ...(globalThis as { longTasks?: number[] }).longTasks!.splice(0)));
    // The slowest page round trip while `work` runs, and after it.
    const slowest = async (work: Promise<unknown>): Promise<number> => {
      let done = false;
      void work.finally(() => (done = true));
      let worst = 0;
      while (!done) {
        const t = performance.now();
        await page.evaluate(() => 1);
        worst = Math.max(worst, performance.now() - t);
      }
      const t = performance.now();
      await page.evaluate(() => 1);
      return Math.max(worst, performance.now() - t);
    };
    const flood = await slowest(runFromPage(page, 'flood', {}));
    assert.ok(flood < RESPONSIVE_MS, `a round trip took ${Math.round(flood)} ms during the flood`);
    const floodTask = await longest();
    assert.ok(floodTask < LONGEST_TASK_MS, `a task took ${floodTask} ms during the flood`);
    // The host passes on 50 log messages a second per server (the rest are counted and dropped);
    // the wire history has every message, the newest 2000 kept: 500 rows drawn, more on request.
    await page.click('[data-screen=wire]');
    const more = page.getByTestId('more-rows');
    await more.filter({ hasText: /newest 500 of 2000 shown/ }).waitFor();
    assert.equal(await page.locator('[data-testid=wire-rows] tr').count(), 500);
    await more.getByRole('button').focus();
    await page.keyboard.press('Enter');
    await more.filter({ hasText: /newest 1000 of 2000 shown/ }).waitFor();
    assert.equal(await page.locator('[data-testid=wire-rows] tr').count(), 1000);

    const huge = await slowest(runFromPage(page, 'huge', {}));
    assert.ok(huge < RESPONSIVE_MS, `a round trip took ${Math.round(huge)} ms with the 5 MB result`);
    const hugeTask = await longest();
    assert.ok(hugeTask < LONGEST_TASK_MS, `a task took ${hugeTask} ms with the 5 MB result`);
    const cut = page.locator('.call').first().getByTestId('truncated');
    assert.match(await cut.innerText(), /Showing 20,000 of 5,242,880 characters/);
    assert.equal(await cut.locator('pre').evaluate((e) => e.textContent!.length), 20_000);
    // Too big to draw whole without freezing the page again: it is saved whole instead.
    assert.equal(await cut.getByTestId('show-whole').count(), 0);
    const [file] = await Promise.all([page.waitForEvent('download'), cut.getByTestId('save-whole').click()]);
    assert.equal((await stat((await file.path())!)).size, HUGE);
    await closePage(page);
  });
});
