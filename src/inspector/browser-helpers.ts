/**
 * Test-only helpers for driving the inspector's page in Chromium: open it, run a tool
 * from its form, answer nothing by default, keep screenshots. Not part of the public API.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, artifactsDir } from './test-helpers.js';

const TIMEOUT = 15_000;

/** Why the browser tests skip, or false when Chromium is there. */
export const NO_CHROMIUM = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is not installed (.ci/run installs it)`;

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
  await page.goto(url);
  await page.getByTestId('connection').filter({ hasText: /ready/ }).waitFor();
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
