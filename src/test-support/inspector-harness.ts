/**
 * Test-only helpers for the inspector: an inspector over literal `mcpServers` entries,
 * raw HTTP requests (any Host, Origin or cookie), the shared Chromium, driving the page
 * (open it, run a tool from its form) and the folder screenshots go to. Not part of the
 * public API.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseHostConfig } from '../host/index.js';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.js';
import { missing } from './services.js';
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

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(artifactsDir(), `${name}.png`), fullPage: true });
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
