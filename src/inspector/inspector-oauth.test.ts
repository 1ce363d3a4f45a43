/**
 * The inspector's OAuth debugger in real Chromium: the whole flow against a protected
 * mcpkit server and the test authorization server on 127.0.0.1, in both eras, driven from
 * the keyboard alone (Tab to the form, Enter for each step, Enter to open the authorization
 * page, whose redirect comes back to the inspector's own callback); the failures explained
 * (a mix-up, a resource mismatch, a hanging server with its timeout shown, a malformed
 * document shown cut with a way to see it whole); and screenshots checked by their pixels.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startProtectedMcp, startRawServer } from '../test-support/auth-fixtures.js';
import type { ProtectOptions } from '../test-support/auth-fixtures.js';
import { TestAuthServer } from '../test-support/auth-test-server.js';
import type { TestAsOptions } from '../test-support/auth-test-server.js';
import {
  NO_CHROMIUM,
  artifactsDir,
  closePage,
  docsShot,
  launchChromium,
  openPage,
  startInspector,
} from '../test-support/inspector-harness.js';
import type { RunningInspector } from '../test-support/inspector-harness.js';
import { countColour, decodePng, distinctColours } from '../test-support/png-check.js';
import type { Png as Pixels } from '../test-support/png-check.js';

const STEP_UP: ProtectOptions = {
  scopesSupported: ['mcp:read'],
  requiredScopes: (r) => (r.mcpName === 'write' ? ['mcp:read', 'mcp:write'] : ['mcp:read']),
};
const GOOD: [number, number, number] = [0x15, 0x7a, 0x3c];
const BAD: [number, number, number] = [0xb4, 0x23, 0x18];

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function protectedServer(asOptions: TestAsOptions = {}, mcpOptions: ProtectOptions = STEP_UP) {
  const as = await TestAuthServer.start(asOptions);
  cleanup.push(() => as.close());
  const mcp = await startProtectedMcp(as, mcpOptions);
  cleanup.push(() => mcp.close());
  return { as, mcp };
}

/** The statuses of the steps, in order: what changes when a step ends. */
const statuses = (page: Page): Promise<string> =>
  page.evaluate(() =>
    [...document.querySelectorAll('[data-step]')].map((e) => e.getAttribute('data-status')).join(' '),
  );

const focused = (page: Page): Promise<string | null> =>
  page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);

/** Waits until the steps changed from `before` and nothing runs or waits for the page. */
async function settled(page: Page, before: string): Promise<void> {
  await page
    .waitForFunction((b) => {
      const now = [...document.querySelectorAll('[data-step]')]
        .map((e) => e.getAttribute('data-status'))
        .join(' ');
      return now !== b && !now.includes('running') && !document.querySelector('[data-testid=oauth-busy]');
    }, before)
    .catch(async (e: Error) => {
      const shown = await page.locator('.oauth').innerText();
      throw new Error(
        `the steps did not move on from "${before}" (now "${await statuses(page)}"):\n${shown}`,
        {
          cause: e,
        },
      );
    });
}

/** Opens the OAuth view and starts a flow, from the keyboard: Enter on the tab, Tab to the URL, Enter. */
async function startFlow(page: Page, url: string, options: { era?: string; timeout?: string } = {}) {
  await page.locator('[data-screen=oauth]').focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('oauth-debugger').waitFor();
  if (options.era) await page.getByTestId('oauth-era').selectOption(options.era);
  if (options.timeout) await page.getByTestId('oauth-timeout').fill(options.timeout);
  await page.locator('[data-screen=oauth]').focus();
  for (let i = 0; i < 30 && (await focused(page)) !== 'oauth-url'; i++) await page.keyboard.press('Tab');
  assert.equal(await focused(page), 'oauth-url', 'Tab reaches the server URL field');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(url);
  await page.keyboard.press('Enter');
  await page.getByTestId('oauth-summary').waitFor();
}

/** Walks the flow with Enter alone until it ends; the authorization pages open as popups. */
async function walkWithKeyboard(page: Page): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await page.waitForFunction(() => {
      const id = document.activeElement?.getAttribute('data-testid');
      return (
        id === 'oauth-next' || id === 'oauth-open' || !!document.querySelector('[data-testid=oauth-done]')
      );
    });
    const at = await focused(page);
    const before = await statuses(page);
    if (at === 'oauth-next') {
      await page.keyboard.press('Enter');
    } else if (at === 'oauth-open') {
      const popup = page.context().waitForEvent('page');
      await page.keyboard.press('Enter');
      const window = await popup;
      // The authorization server approves at once and sends the browser to the inspector's callback.
      await window.getByText('Authorization received').waitFor();
      assert.match(window.url(), /\/oauth\/callback\?/);
      await window.close();
    } else return;
    await settled(page, before);
  }
  assert.fail('the flow did not end');
}

/** A screenshot of the whole page from its top, decoded: element boxes are then page coordinates. */
async function pageShot(page: Page, path: string): Promise<Pixels> {
  await page.evaluate(() => window.scrollTo(0, 0));
  return decodePng(await page.screenshot({ path, fullPage: true }));
}

async function stepStatus(page: Page, id: string): Promise<string | null> {
  return page.locator(`[data-step="${id}"]`).getAttribute('data-status');
}

describe('inspector OAuth debugger in Chromium', { skip: NO_CHROMIUM }, () => {
  let browser: Browser;
  let inspector: RunningInspector;

  before(async () => {
    browser = (await launchChromium())!;
    inspector = await startInspector({});
  });
  after(async () => {
    await inspector?.close();
    await browser?.close();
  });

  for (const era of ['legacy', 'modern'] as const) {
    test(`walks the whole flow from the keyboard (${era} era), every step passing`, async () => {
      const { as, mcp } = await protectedServer();
      const page = await openPage(browser, inspector.server.url);
      await startFlow(page, mcp.url, { era });
      await walkWithKeyboard(page);
      const ids = [
        'challenge',
        'resource-metadata',
        'as-metadata',
        'client',
        'authorize',
        'token',
        'call',
        'refresh',
        'step-up',
      ];
      for (const id of ids) assert.equal(await stepStatus(page, id), 'passed', id);
      assert.match(await page.getByTestId('oauth-done').innerText(), /complete/);
      assert.equal(as.count('/authorize'), 2, 'the first authorization and the step-up');
      // The step-up asked for the union of the scopes, and the page shows the 403 it answered.
      const scopes = as.requests.filter((r) => r.path === '/authorize').map((r) => r.query.get('scope'));
      assert.deepEqual(scopes, ['mcp:read', 'mcp:read mcp:write']);
      const stepUp = page.locator('[data-step="step-up"]');
      assert.ok((await stepUp.getByTestId('oauth-exchange-status').allInnerTexts()).includes('403'));
      // Secrets are masked in what the page shows.
      await stepUp.getByTestId('oauth-exchange').first().locator('summary').click();
      const text = await page.locator('.oauth-flow').innerText();
      assert.match(text, /Bearer eyJ.…\(redacted, \d+ chars\)/);
      const token = mcp.seen.findLast((h) => h.authorization.startsWith('Bearer '))!.authorization.slice(7);
      assert.equal(text.includes(token), false);

      // The screenshot: the passed steps carry the green mark, nothing is red, the page is not blank.
      const full = join(artifactsDir(), `oauth-${era}.png`);
      const png = await pageShot(page, full);
      if (era === 'legacy') await docsShot(page, 'oauth');
      assert.equal(png.width, 1280);
      const first = (await page.locator('[data-step="challenge"]').boundingBox())!;
      const border = { x: first.x, y: first.y + 8, width: 4, height: first.height - 16 };
      assert.ok(countColour(png, border, GOOD) >= border.height * 3, 'a green border on a passed step');
      const steps = (await page.locator('.oauth-steps').boundingBox())!;
      const borders = { x: steps.x, y: steps.y, width: 4, height: steps.height };
      assert.equal(countColour(png, borders, BAD, 16), 0, 'no step marked red');
      assert.ok(distinctColours(png, { x: 0, y: 0, width: png.width, height: 400 }) > 20, 'not blank');
      await closePage(page);
    });
  }

  test('explains an authorization server mix-up, with the failed step marked in red', async () => {
    const { as, mcp } = await protectedServer({
      metadata: (m) => ({ ...m, issuer: 'http://127.0.0.1:9/evil' }),
    });
    const page = await openPage(browser, inspector.server.url);
    await startFlow(page, mcp.url);
    await walkWithKeyboard(page);
    assert.equal(await stepStatus(page, 'as-metadata'), 'failed');
    assert.equal(await stepStatus(page, 'client'), 'pending');
    const failure = page.locator('[data-step="as-metadata"]').getByTestId('oauth-failure');
    assert.match(await failure.getByTestId('oauth-failure-title').innerText(), /mix-up/);
    assert.match(await failure.innerText(), /http:\/\/127\.0\.0\.1:9\/evil/);
    assert.match(await page.getByTestId('oauth-done').innerText(), /stopped/);
    assert.equal(as.count('/register'), 0);
    const png = decodePng(await failure.screenshot({ path: join(artifactsDir(), 'oauth-mixup.png') }));
    // The failure box is outlined in the theme's red.
    assert.ok(
      countColour(png, { x: 0, y: 0, width: png.width, height: 3 }, BAD) > png.width / 2,
      'red outline',
    );
    await closePage(page);
  });

  test('explains a resource mismatch (modern era)', async () => {
    const { mcp } = await protectedServer({}, { ...STEP_UP, resource: 'http://127.0.0.1:1/another' });
    const page = await openPage(browser, inspector.server.url);
    await startFlow(page, mcp.url, { era: 'modern' });
    await walkWithKeyboard(page);
    assert.equal(await stepStatus(page, 'resource-metadata'), 'failed');
    const failure = page.locator('[data-step="resource-metadata"]').getByTestId('oauth-failure');
    assert.equal(await failure.getByTestId('oauth-failure-title').innerText(), 'Resource mismatch');
    assert.match(await failure.innerText(), /127\.0\.0\.1:1\/another/);
    await closePage(page);
  });

  test('a hanging server shows its timeout while it waits, then fails; a malformed document is cut, shown whole on request', async () => {
    let origin = '';
    const long = `{"resource": ${'x'.repeat(5000)}`;
    const server = await startRawServer((req, res) => {
      if (req.url === '/mcp')
        res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${origin}/prm"` }).end();
      else if (req.url === '/prm') res.writeHead(200, { 'content-type': 'application/json' }).end(long);
      // /hang: never answered.
    });
    origin = server.origin;
    cleanup.push(() => server.close());
    const page = await openPage(browser, inspector.server.url);
    await startFlow(page, `${origin}/hang`, { timeout: '1.5' });
    await page.keyboard.press('Enter');
    assert.match(await page.getByTestId('oauth-busy').innerText(), /gives up after 1\.5 s/);
    await page.getByTestId('oauth-failure').waitFor();
    assert.equal(await page.getByTestId('oauth-failure-title').innerText(), 'No answer in time');
    assert.match(await page.locator('.oauth-error-line').first().innerText(), /No answer within 1\.5 s/);

    await startFlow(page, `${origin}/mcp`);
    await walkWithKeyboard(page);
    assert.equal(await stepStatus(page, 'resource-metadata'), 'failed');
    const step = page.locator('[data-step="resource-metadata"]');
    assert.match(await step.getByTestId('oauth-failure').innerText(), /not JSON/);
    await step.getByTestId('oauth-exchange').locator('summary').click();
    const body = step.locator('.oauth-body pre').last();
    assert.ok((await body.innerText()).length < 2100, 'cut');
    await step.getByTestId('oauth-body-all').click();
    assert.equal((await body.innerText()).length, long.length, 'whole');
    await closePage(page);
  });
});
