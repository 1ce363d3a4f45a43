/**
 * The Timeline screen in Chromium: a call with its progress and the elicitation it asked
 * grouped under it on one time axis (checked on the screenshot's pixels and the rows'
 * boxes), driven by keyboard alone, a recording saved from the page and loaded back, the
 * catalog diff of two builds of one server, and a flood of 20,000 notifications that
 * leaves the page answering clicks with a bounded number of DOM nodes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { McpServer } from '../server/server.js';
import { serve } from '../serve/index.js';
import type { RunningServer } from '../serve/index.js';
import {
  NO_CHROMIUM,
  artifactsDir,
  closePage,
  launchChromium,
  openPage,
  runFromPage,
} from '../test-support/inspector-harness.js';
import { docsShot, startInspector } from '../test-support/inspector-harness.js';
import type { RunningInspector } from '../test-support/inspector-harness.js';
import { parseRecording } from './recording.js';

const FLOOD = 20_000;

function build(version: 1 | 2): McpServer {
  const server = new McpServer({ name: 'timeline', version: `${version}.0.0` });
  server.tool(
    {
      name: 'ask',
      description: version === 1 ? 'Reports progress, asks a question, answers' : 'Asks, then answers',
      input: { type: 'object', properties: {} },
    },
    async (_args, ctx) => {
      ctx.progress(1, 3);
      const answer = await ctx.elicit({
        message: 'Your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      });
      ctx.progress(2, 3);
      ctx.progress(3, 3);
      return `hello ${String((answer.content as { name?: string } | undefined)?.name)}`;
    },
  );
  if (version === 1)
    server.tool({ name: 'flood', description: `Sends ${FLOOD} notifications, then answers` }, (_a, ctx) => {
      for (let i = 0; i < FLOOD; i++) ctx.progress(i, FLOOD);
      return `sent ${FLOOD}`;
    });
  else server.tool({ name: 'added_in_v2', description: 'New' }, () => 'new');
  return server;
}

/** Decodes a PNG in the page (a canvas) and reads pixels at points of the element it shows. */
async function pixels(
  page: Page,
  png: Buffer,
  points: Array<[number, number]>,
): Promise<{ distinct: number; at: Array<[number, number, number]> }> {
  return page.evaluate(
    async ({ b64, points }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const g = c.getContext('2d')!;
      g.drawImage(img, 0, 0);
      const data = g.getImageData(0, 0, c.width, c.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < data.length; i += 4 * 7)
        seen.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
      const at = points.map(([x, y]): [number, number, number] => {
        const i = (Math.round(y) * c.width + Math.round(x)) * 4;
        return [data[i]!, data[i + 1]!, data[i + 2]!];
      });
      return { distinct: seen.size, at };
    },
    { b64: png.toString('base64'), points },
  );
}

const far = (a: number[], b: number[]): number => Math.max(...a.map((v, i) => Math.abs(v - b[i]!)));

describe('inspector timeline in Chromium', { skip: NO_CHROMIUM }, () => {
  let browser: Browser;
  let v1: RunningServer;
  let v2: RunningServer;
  let insp: RunningInspector;

  before(async () => {
    browser = (await launchChromium())!;
    v1 = await serve(build(1), { port: 0 });
    v2 = await serve(build(2), { port: 0 });
    insp = await startInspector({ v1: { url: v1.url, era: 'legacy' }, v2: { url: v2.url, era: 'modern' } });
  });
  after(async () => {
    await insp?.close();
    await v1?.close();
    await v2?.close();
    await browser?.close();
  });

  test('a call with its progress and nested elicitation on one axis; keyboard; recording; catalog diff', async () => {
    // Each build's `ask`, by deep link: v1 speaks legacy (a nested elicitation request),
    // v2 modern (an input_required answer and a retry).
    const deep = (server: string): string => `${insp.server.url}&tool=ask&server=${server}&args=%7B%7D&run=1`;
    const page = await openPage(browser, deep('v1'));
    for (const server of ['v1', 'v2']) {
      if (server === 'v2') {
        await page.goto(deep('v2'));
        await page
          .getByTestId('connection')
          .filter({ hasText: /2\/2 ready/ })
          .waitFor();
      }
      const q = page.locator('[data-question=elicit-form]');
      await q.waitFor();
      await q.locator('[data-path=name]').fill('ada');
      await q.locator('[data-answer=accept]').click();
      await page
        .locator('.call [data-testid=tool-result]')
        .filter({ hasText: 'hello ada' })
        .first()
        .waitFor();
    }

    // To the Timeline by keyboard: its tab, then the list.
    await page.locator('[data-screen=timeline]').focus();
    await page.keyboard.press('Enter');
    const list = page.getByTestId('timeline');
    const callOf = (server: string) =>
      list.locator(`[data-kind=request][data-method="tools/call"][data-server=${server}]`).last();
    const childrenOf = (server: string) =>
      callOf(server).evaluate((row) => {
        const out: string[] = [];
        for (let r = row.nextElementSibling as HTMLElement | null; r?.classList.contains('depth1');) {
          out.push(`${r.dataset.kind} ${r.dataset.method}`);
          r = r.nextElementSibling as HTMLElement | null;
        }
        return out;
      });
    const call = callOf('v1');
    await call.waitFor();
    assert.match(await call.innerText(), /ask[\s\S]*result/);
    assert.deepEqual(await childrenOf('v1'), [
      'progress notifications/progress',
      'server-request elicitation/create',
      'progress notifications/progress',
      'progress notifications/progress',
    ]);
    assert.match(await callOf('v2').innerText(), /input required → result/);
    assert.deepEqual(await childrenOf('v2'), [
      'progress notifications/progress',
      'input-round tools/call',
      'progress notifications/progress',
      'progress notifications/progress',
      'progress notifications/progress',
    ]);
    const under = list.locator('.tl-row.depth1');

    // Layout: children indented under the call; the call's bar spans from its start to its answer.
    const callBox = (await call.locator('.tl-method').boundingBox())!;
    const childText = (await list
      .locator('.tl-row.depth1[data-server=v1]')
      .first()
      .locator('.tl-method .tag')
      .boundingBox())!;
    const callText = (await call.locator('.tl-method .tag').boundingBox())!;
    assert.ok(childText.x > callText.x + 10, 'a child row is indented');
    assert.ok(callBox.width > 100);
    const bar = (await call.getByTestId('timeline-bar').boundingBox())!;
    const listBox = (await list.boundingBox())!;
    assert.ok(bar.width >= 3 && bar.x + bar.width <= listBox.x + listBox.width + 1);
    assert.equal(Math.round(bar.height), 10);

    // The screenshot: not blank, and the bar drawn in the accent colour against the row's background.
    await list.focus();
    const png = await list.screenshot({ path: join(artifactsDir(), 'timeline.png') });
    await docsShot(page, 'timeline');
    const mid: [number, number] = [bar.x - listBox.x + bar.width / 2, bar.y - listBox.y + bar.height / 2];
    const beside: [number, number] = [mid[0], bar.y - listBox.y - 4];
    const seen = await pixels(page, png, [mid, beside]);
    assert.ok(seen.distinct > 20, `the timeline is drawn (${seen.distinct} colours)`);
    const accent = await page.evaluate(() =>
      getComputedStyle(document.querySelector('[data-testid=timeline-bar]')!)
        .backgroundColor.match(/\d+/g)!
        .map(Number),
    );
    assert.ok(
      far(seen.at[0]!, accent) < 40,
      `the bar's pixels are the accent colour: ${seen.at[0]} vs ${accent}`,
    );
    assert.ok(far(seen.at[0]!, seen.at[1]!) > 60, 'the bar stands out from its row');

    // Keyboard: the list has focus; arrows move the selection, Enter opens the exchange, Left folds.
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'timeline');
    const callIndex = await list
      .locator('[role=treeitem]')
      .evaluateAll((rows) =>
        rows.findIndex((r) => r.dataset.method === 'tools/call' && r.dataset.kind === 'request'),
      );
    await page.keyboard.press('Home');
    for (let i = 0; i < callIndex; i++) await page.keyboard.press('ArrowDown');
    assert.equal(await call.getAttribute('aria-selected'), 'true');
    await page.keyboard.press('Enter');
    const detail = page.getByTestId('timeline-detail');
    assert.match(await detail.innerText(), /tools\/call ask[\s\S]*"name": "ask"[\s\S]*hello ada/);
    const shownUnder = await under.count();
    await page.keyboard.press('ArrowLeft');
    assert.equal(await call.getAttribute('aria-expanded'), 'false');
    assert.equal(await under.count(), shownUnder - 4);
    await page.keyboard.press('ArrowRight');
    assert.equal(await call.getAttribute('aria-expanded'), 'true');

    // A recording saved from the page reads back with the call in it; loaded, it is a timeline.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('download-recording').click(),
    ]);
    const text = await readFile((await download.path())!, 'utf8');
    const rec = parseRecording(text);
    assert.equal(rec.servers.get('v1')?.serverInfo?.version, '1.0.0');
    assert.equal(rec.servers.get('v1')?.era, 'legacy');
    assert.ok(rec.messages.some((m) => (m.message as { method?: string }).method === 'elicitation/create'));
    await page.getByTestId('load-recording').setInputFiles({
      name: 'session.jsonl',
      mimeType: 'application/jsonl',
      buffer: Buffer.from(text),
    });
    // The file is read asynchronously: wait for the page to switch, rather than look at once.
    await page.waitForFunction(
      () =>
        (document.querySelector('[data-testid=timeline-source]') as HTMLSelectElement | null)?.value ===
        'recording',
    );
    await list.locator('[data-kind=server-request]').first().waitFor();
    await page.getByTestId('load-recording').setInputFiles({
      name: 'bad.jsonl',
      mimeType: 'application/jsonl',
      buffer: Buffer.from('{"exportedAt":"x","messages":[]}'),
    });
    assert.match(
      await page.getByTestId('load-error').innerText(),
      /bad\.jsonl: line 1: not an mcpkit recording/,
    );

    // The catalog diff: v1 → v2 of the server, then the recording's v1 against live v2.
    const diff = page.getByTestId('catalog-diff');
    await diff.getByTestId('diff-before').selectOption('server:v1');
    await diff.getByTestId('diff-after').selectOption('server:v2');
    const rows = async (): Promise<string[]> =>
      diff
        .locator('li[data-change]')
        .evaluateAll((l) => l.map((x) => `${x.dataset.change} ${x.dataset.key}`));
    assert.deepEqual(await rows(), ['added added_in_v2', 'changed ask', 'removed flood']);
    assert.match(await diff.locator('li[data-key=ask]').innerText(), /\(description\)/);
    await diff.getByTestId('diff-before').selectOption('recording:v1');
    assert.deepEqual(await rows(), ['added added_in_v2', 'changed ask', 'removed flood']);
    await closePage(page);
  });

  test(`${FLOOD.toLocaleString()} notifications: the page answers clicks and the DOM stays bounded`, async () => {
    const page = await openPage(browser, insp.server.url);
    await page
      .getByTestId('connection')
      .filter({ hasText: /2\/2 ready/ })
      .waitFor();
    await page.click('[data-screen=timeline]');
    await page.getByTestId('timeline').waitFor();
    const flooded = runFromPage(page, 'flood', {});
    // One mouse: the theme click waits until runFromPage has pressed Run (the call is shown)
    // and only waits from then on; clicking at once raced its tab and tool clicks.
    await page.locator('.call').first().waitFor();
    // While it floods: a click on the theme button is answered (the page is not frozen).
    const theme = page.getByTestId('theme');
    const before = await theme.innerText();
    await theme.click();
    assert.notEqual(await theme.innerText(), before);
    assert.match(await flooded, new RegExp(`sent ${FLOOD}`));
    await page.click('[data-screen=timeline]');
    const list = page.getByTestId('timeline');
    const dropped = page.getByTestId('dropped');
    await dropped.waitFor();
    assert.match(await dropped.innerText(), /[\d,]+ older messages dropped/);
    // The newest messages, at the end: windowed, so only the rows in view exist.
    await list.focus();
    await page.keyboard.press('End');
    await list.locator('[role=treeitem][aria-selected=true]').waitFor();
    const nodes = await page.evaluate(() => document.querySelectorAll('*').length);
    const rows = await list.locator('[role=treeitem]').count();
    assert.ok(rows < 80, `${rows} rows in the DOM`);
    assert.ok(nodes < 3000, `${nodes} DOM nodes`);
    // Still answering: a click opens the selected exchange.
    await list.locator('[role=treeitem][data-kind=progress]').last().click();
    await page.getByTestId('timeline-detail').filter({ hasText: 'notifications/progress' }).waitFor();
    await closePage(page);
  });
});
