#!/usr/bin/env node
/* global document -- the functions given to page.evaluate and waitForFunction run in the page */
// Regenerates docs/images/inspector.png, the README's picture of `mcpkit inspect`: the CLI
// against the demo server over stdio, in headless Chromium 1280 wide (light theme, scale 1),
// two task tools run to completion and the Tasks screen shown, cut below its content. Needs
// a build (`npm run build`) and Chromium (MCPKIT_CHROMIUM, default /usr/bin/chromium).
// The same steps give the same picture except for the task ids, times and wire count.
//
//   node scripts/inspector-screenshot.mjs [--out FILE]
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const out = values.out ?? `${root}docs/images/inspector.png`;
const CLI = `${root}dist/cli/main.js`;
const DEMO = `${root}dist/demo/everything-stdio.js`;
// The tests' Chromium and its quiet, offline flags.
const { CHROMIUM, CHROMIUM_ARGS } = await import(`${root}dist/test-support/chromium.js`);
/** A README picture should stay small in the repository. */
const MAX_BYTES = 250 * 1024;

for (const [file, hint] of [
  [CLI, 'npm run build'],
  [`${root}dist/inspector-ui/index.html`, 'npm run build:ui'],
  [CHROMIUM, 'apt-get install chromium, or set MCPKIT_CHROMIUM'],
]) {
  if (!existsSync(file)) {
    console.error(`${file} is missing: ${hint}`);
    process.exit(1);
  }
}

const cli = spawn(process.execPath, [CLI, 'inspect', '--port', '0', '--', process.execPath, DEMO], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise((resolve, reject) => {
  let text = '';
  cli.stdout.on('data', (d) => {
    text += d;
    const m = /open (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(text);
    if (m) resolve(m[1]);
  });
  cli.once('exit', (code) => reject(new Error(`mcpkit inspect exited (${code}): ${text}`)));
});

const { chromium } = await import('playwright-core');
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: [...CHROMIUM_ARGS],
});
try {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    colorScheme: 'light',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  await page.goto(url);
  await page.getByTestId('connection').filter({ hasText: '1/1 ready' }).waitFor();
  // Task tools, run from their forms: a job that ends in a tool error and a report.
  const run = async (tool, fill) => {
    await page.click('[data-screen=tools]');
    await page.click(`[data-tool=${tool}]`);
    await fill?.();
    await page.getByTestId('run').click();
    await page.locator('.call [data-testid=tool-result]').first().waitFor();
  };
  await run('failing_job');
  await run('research_report', () => page.fill('[data-path=topic]', 'MCP servers'));
  await page.click('[data-screen=tasks]');
  const rows = page.locator('[data-testid=task-rows] tr[data-task]');
  // Both finished (a tool error is still a completed task: the result says it failed).
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid=task-rows] tr[data-status=completed]').length === 2,
  );
  await rows.last().getByRole('button', { name: 'Refresh' }).click();
  await page.locator('[data-testid=task-rows] tr.expanded').first().waitFor();
  if ((await rows.count()) !== 2) throw new Error(`expected 2 tasks, saw ${await rows.count()}`);
  // The picture must show the Tasks tab: it is there and it is the current screen.
  const tab = page.locator('nav button[data-screen=tasks]');
  if (!(await tab.isVisible()) || !(await tab.getAttribute('class'))?.includes('on'))
    throw new Error('the Tasks tab is not the visible, current tab');
  // Cut below the content: the empty rest of the window only makes the file bigger.
  const bottom = await page.evaluate(
    () => document.querySelector('main').lastElementChild.getBoundingClientRect().bottom,
  );
  await page.screenshot({
    path: out,
    clip: { x: 0, y: 0, width: 1280, height: Math.min(800, Math.ceil(bottom) + 16) },
  });
} finally {
  await browser.close();
  cli.kill('SIGTERM');
}

const png = readFileSync(out);
const width = png.readUInt32BE(16);
const height = png.readUInt32BE(20);
const size = statSync(out).size;
console.log(`${out}: ${width}×${height}, ${size} bytes`);
if (width !== 1280 || height > 800)
  throw new Error(`expected 1280 wide, at most 800 high: ${width}×${height}`);
if (size > MAX_BYTES)
  throw new Error(`${size} bytes is more than ${MAX_BYTES}: keep the README picture small`);
if (!readFileSync(`${root}README.md`, 'utf8').includes('](docs/images/inspector.png)'))
  throw new Error('README.md does not show docs/images/inspector.png');
