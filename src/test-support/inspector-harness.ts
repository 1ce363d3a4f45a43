/**
 * Test-only helpers for the inspector: an inspector over literal `mcpServers` entries,
 * raw HTTP requests (any Host, Origin or cookie), the shared Chromium, driving the page
 * (open it, run a tool from its form) and the folder screenshots go to. Not part of the
 * public API.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseHostConfig } from '../host/index.js';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.js';
import { missing } from './services.js';
import { blankness, colours, decodePng, regionContrast } from './png-check.js';
import type { Png } from './png-check.js';
import { InspectorHost } from '../inspector/inspector-host.js';
import { startInspectorServer } from '../inspector/server.js';
import type { InspectorServer } from '../inspector/server.js';

const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));

/** Our demo server on stdio, and the CLI. */
export const DEMO_STDIO = here('../demo/everything-stdio.js');
export const CLI = here('../cli/main.js');
export const EVERYTHING = fileURLToPath(
  import.meta.resolve('@modelcontextprotocol/server-everything/dist/index.js'),
);
/** Screenshots of each screen, kept as test artifacts (git-ignored). */
export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/inspector/', import.meta.url));

export interface RunningInspector {
  session: InspectorHost;
  server: InspectorServer;
  /** `http://127.0.0.1:PORT` */
  base: string;
  close(): Promise<void>;
}

/** An inspector over literal `mcpServers` entries, allowed as `mcpkit inspect` allows. */
export async function startInspector(servers: Record<string, unknown>): Promise<RunningInspector> {
  const config = { ...parseHostConfig({ mcpServers: servers }), defaultDecision: 'allow' as const };
  const session = new InspectorHost(config);
  const server = await startInspectorServer(session);
  await session.start();
  return {
    session,
    server,
    base: `http://127.0.0.1:${server.port}`,
    close: async () => {
      await server.close();
      await session.close();
    },
  };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request with exactly these headers (fetch would not let a test forge Host). */
export function raw(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Launches Debian's Chromium, headless; undefined when it is not installed. Playwright
 * gives each launch a fresh temporary profile, and each test a fresh context.
 */
export async function launchChromium(): Promise<Browser | undefined> {
  if (!existsSync(CHROMIUM)) return undefined;
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS],
  });
}

export function artifactsDir(): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return ARTIFACTS;
}

// Generous: CI runs two test files at once on two cores, each with its own Chromium.
const TIMEOUT = 30_000;
const CONNECT_TIMEOUT = 60_000;

/** Why the browser tests skip, or false when Chromium is there. */
export const NO_CHROMIUM: string | false = missing('chromium');

/** Reads the first line of a stream that matches, e.g. the URL a command prints. */
export function lineMatching(child: ChildProcess, stream: 'stdout' | 'stderr', re: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const s = child[stream]!;
    const ondata = (d: Buffer): void => {
      text += d.toString();
      const m = re.exec(text);
      if (m) {
        s.off('data', ondata);
        resolve(m[1]!);
      }
    };
    s.on('data', ondata);
    child.once('exit', (code) => reject(new Error(`exited (${code}) before printing ${re}: ${text}`)));
  });
}

export async function openPage(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  page.setDefaultTimeout(TIMEOUT);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  (page as Page & { errors: string[] }).errors = errors;
  // What the page saw, kept to explain a page that never connects.
  const seen: string[] = [];
  page.on('console', (m) => seen.push(`console ${m.type()}: ${m.text()}`));
  page.on('requestfailed', (r) => seen.push(`failed ${r.url()}: ${r.failure()?.errorText}`));
  page.on('response', (r) => seen.push(`${r.status()} ${r.url()}`));
  page.on('crash', () => seen.push('the page crashed'));
  await page.goto(url);
  try {
    await page.getByTestId('connection').filter({ hasText: /ready/ }).waitFor({ timeout: CONNECT_TIMEOUT });
  } catch (e) {
    const shown = await page
      .getByTestId('connection')
      .innerText({ timeout: 1000 })
      .catch(() => '(no connection indicator)');
    throw new Error(
      `the page did not connect to the inspector (indicator: ${shown}; errors: ${errors.join('; ') || 'none'})\n` +
        `${seen.join('\n')}\n${(e as Error).message}`,
      { cause: e },
    );
  }
  return page;
}

export async function closePage(page: Page): Promise<void> {
  assert.deepEqual((page as Page & { errors: string[] }).errors, [], 'no script errors in the page');
  await page.context().close();
}

/** The docs' copies of the screenshots, written only when MCPKIT_DOCS_SCREENSHOTS=1. */
export const DOCS_IMAGES = fileURLToPath(new URL('../../docs/images/inspector/', import.meta.url));

/** What {@link checkedShot} checks beyond the whole image's size and not being blank. */
export interface ShotChecks {
  /**
   * Elements whose drawn content (text, icons) must stand out from their own background by at
   * least `min` (default 4.5:1, WCAG AA for text), measured on the element's pixels.
   */
  contrast?: Array<{ element: Locator; min?: number; label?: string }>;
  /** Elements that must be on screen, inside the image, and not blank. */
  drawn?: Locator[];
  /** With MCPKIT_DOCS_SCREENSHOTS=1, also writes the viewport to docs/images/inspector/NAME.png. */
  docs?: string;
  /** The whole page (default), or only the viewport: a very long page is slow to capture. */
  fullPage?: boolean;
}

/**
 * A screenshot that is checked: the page's full image is decoded and must be as wide as the
 * viewport and at least as tall, and not blank (one colour nearly everywhere, or too few
 * colours for any text); each `drawn` element must lie inside it with pixels of its own; each
 * `contrast` element must reach its ratio. Returns the image and the ratios measured.
 */
export async function checkedShot(
  page: Page,
  name: string,
  checks: ShotChecks = {},
): Promise<{ png: Png; contrast: number[] }> {
  const fullPage = checks.fullPage ?? true;
  const file = await page.screenshot({ path: join(artifactsDir(), `${name}.png`), fullPage });
  const png = decodePng(file);
  const view = page.viewportSize() ?? { width: 1280, height: 860 };
  assert.equal(png.width, view.width, `${name}.png is as wide as the viewport`);
  assert.ok(
    fullPage ? png.height >= view.height : png.height === view.height,
    `${name}.png is ${fullPage ? 'at least' : 'exactly'} as tall as the viewport (${png.height})`,
  );
  const blank = blankness(png);
  assert.equal(blank, undefined, `${name}.png is not blank: ${blank}`);
  for (const element of checks.drawn ?? []) {
    const box = await element.boundingBox();
    assert.ok(box && box.width > 0 && box.height > 0, `${name}: the element is laid out`);
    // A full-page image starts at the page's top; a viewport one at the scrolled position.
    const scroll = fullPage
      ? await page.evaluate(() => ({ x: window.scrollX, y: window.scrollY }))
      : { x: 0, y: 0 };
    const at = { x: box.x + scroll.x, y: box.y + scroll.y, width: box.width, height: box.height };
    assert.ok(
      at.x >= 0 && at.y >= 0 && at.x + at.width <= png.width + 1 && at.y + at.height <= png.height + 1,
      `${name}: the element (${JSON.stringify(at)}) lies inside the ${png.width}x${png.height} image`,
    );
    // Its own pixels: more than one colour (text, a chart, a form), not an empty box.
    const n = colours(png, at).length;
    assert.ok(n >= 4, `${name}: the element draws something (${n} colours in its box)`);
  }
  const ratios: number[] = [];
  for (const { element, min = 4.5, label = 'element' } of checks.contrast ?? []) {
    // The element's own pixels; 2 px in from each side, off its border and focus ring.
    const own = decodePng(await element.screenshot());
    const inset = { x: 2, y: 2, width: own.width - 4, height: own.height - 4 };
    const c = regionContrast(own, inset);
    ratios.push(c.ratio);
    assert.ok(
      c.ratio >= min,
      `${name}: ${label} draws ${c.foreground} on ${c.background}, ${c.ratio.toFixed(2)}:1 (want ${min}:1)`,
    );
  }
  if (checks.docs) await docsShot(page, checks.docs);
  return { png, contrast: ratios };
}

/** With MCPKIT_DOCS_SCREENSHOTS=1 (`npm run docs:screenshots`), writes the viewport to docs/images/inspector/NAME.png. */
export async function docsShot(page: Page, name: string): Promise<void> {
  if (process.env.MCPKIT_DOCS_SCREENSHOTS !== '1') return;
  mkdirSync(DOCS_IMAGES, { recursive: true });
  const docsFile = await page.screenshot();
  assert.equal(blankness(decodePng(docsFile)), undefined, `docs ${name}.png is not blank`);
  writeFileSync(join(DOCS_IMAGES, `${name}.png`), docsFile);
}

/** A checked screenshot of the whole page (see {@link checkedShot}). */
export async function shot(page: Page, name: string, checks: ShotChecks = {}): Promise<void> {
  await checkedShot(page, name, checks);
}

/** Selects a tool, fills its form through `fill` (or its JSON), runs it and returns the result's text. */
export async function runFromPage(
  page: Page,
  tool: string,
  args: Record<string, unknown> | ((p: Page) => Promise<void>),
): Promise<string> {
  await page.click('[data-screen=tools]');
  await page.click(`[data-tool="${tool}"]`);
  const detail = page.getByTestId('tool-detail');
  await detail.locator('h2').waitFor();
  if (typeof args === 'function') await args(page);
  else {
    await detail.getByRole('button', { name: 'JSON', exact: true }).first().click();
    await page.getByTestId('args-json').fill(JSON.stringify(args));
  }
  const previous = await page
    .locator('.call')
    .first()
    .getAttribute('data-call', { timeout: 100 })
    .catch(() => null);
  await page.getByTestId('run').click();
  // The newest call is shown first: wait for it to replace the previous one.
  const call = page.locator(previous ? `.call:not([data-call="${previous}"])` : '.call').first();
  await call.locator('[data-testid=tool-result], [data-testid=tool-error]').waitFor();
  return call.innerText();
}
