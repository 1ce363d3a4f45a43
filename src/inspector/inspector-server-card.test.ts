/**
 * The inspector reads a remote server's Server Card (SEP-2127) before connecting: through its
 * API (`/api/server-card`), and in Chromium from the connect form.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { McpServer } from '../server/server.js';
import { serve } from '../serve/index.js';
import type { RunningServer } from '../serve/index.js';
import { NO_CHROMIUM, closePage, openPage, raw, shot } from '../test-support/inspector-harness.js';
import { launchChromium, startInspector } from '../test-support/inspector-harness.js';
import type { RunningInspector } from '../test-support/inspector-harness.js';

describe('inspector: Server Cards', () => {
  let insp: RunningInspector;
  let withCard: RunningServer;
  let withoutCard: RunningServer;

  before(async () => {
    const info = {
      name: 'com.example/weather',
      version: '3.1.0',
      title: 'Weather',
      description: 'Forecasts and alerts for any city.',
    };
    withCard = await serve(new McpServer(info), { serverCard: true });
    withoutCard = await serve(new McpServer(info));
    insp = await startInspector({});
  });
  after(async () => {
    await insp?.close();
    await withCard?.close();
    await withoutCard?.close();
  });

  const api = (body: unknown) =>
    raw(
      insp.server.port,
      'POST',
      '/api/server-card',
      {
        host: `127.0.0.1:${insp.server.port}`,
        authorization: `Bearer ${insp.server.token}`,
        'content-type': 'application/json',
      },
      JSON.stringify(body),
    ).then((a) => ({ status: a.status, body: JSON.parse(a.body) as Record<string, unknown> }));

  test('the API reads <endpoint>/server-card, and says why when there is none', async () => {
    const ok = await api({ url: withCard.url });
    assert.equal(ok.status, 200);
    const card = ok.body.card as { name: string; remotes: { url: string }[] };
    assert.equal(card.name, 'com.example/weather');
    assert.equal(card.remotes[0]?.url, withCard.url);
    const none = await api({ url: withoutCard.url });
    assert.match((none.body.error as { message: string }).message, /HTTP 404/);
    const bad = await api({ url: 'not a url' });
    assert.match((bad.body.error as { message: string }).message, /Invalid URL/);
  });

  test('the connect form shows the card before connecting', { skip: NO_CHROMIUM }, async () => {
    const browser: Browser = (await launchChromium())!;
    try {
      const page = await openPage(browser, insp.server.url);
      const form = page.getByTestId('connect-form');
      await form.getByTestId('connect-transport').selectOption('http');
      await form.getByTestId('connect-target').fill(withCard.url);
      await form.getByTestId('read-server-card').click();
      const details = form.getByTestId('server-card-details');
      await details.waitFor();
      const text = await details.innerText();
      assert.match(text, /Weather/);
      assert.match(text, /com\.example\/weather 3\.1\.0/);
      assert.match(text, /streamable-http: http:\/\/127\.0\.0\.1:\d+\/mcp/);
      await shot(page, 'server-card', { docs: 'server-card' });
      await form.getByTestId('connect-target').fill(withoutCard.url);
      await form.getByTestId('read-server-card').click();
      await form.getByTestId('server-card-error').filter({ hasText: 'HTTP 404' }).waitFor();
      await closePage(page);
    } finally {
      await browser.close();
    }
  });
});
