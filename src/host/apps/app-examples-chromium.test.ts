/**
 * The official example app servers from npm, run as real stdio child processes and
 * rendered through our bridge in real Chromium: each view gets the tool result, and its
 * own `callServerTool` (the "Get Server Time" button) goes through the host to the server.
 * The vanilla JS view's message, log and link buttons reach the host's callbacks too.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport } from '../../transports/stdio/index.js';
import { AppsTestBed, SKIP_CHROMIUM, appsClient } from '../../test-support/apps-harness.js';

const EXAMPLES = {
  vanillajs: '@modelcontextprotocol/server-basic-vanillajs',
  react: '@modelcontextprotocol/server-basic-react',
} as const;

function entry(pkg: string): string {
  return fileURLToPath(new URL(`../../../node_modules/${pkg}/dist/index.js`, import.meta.url));
}

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;

describe('AppBridge in Chromium: the official example app servers', { skip: SKIP_CHROMIUM }, () => {
  let bed: AppsTestBed;
  before(async () => {
    bed = await AppsTestBed.start();
  });
  after(async () => {
    await bed?.close();
  });

  for (const [name, pkg] of Object.entries(EXAMPLES)) {
    test(`server-basic-${name}: renders, gets the result, and calls back through the host`, async () => {
      const client = await appsClient(
        new StdioClientTransport({
          command: process.execPath,
          args: [entry(pkg), '--stdio'],
          stderr: 'ignore',
        }),
      );
      try {
        const calls: string[] = [];
        let waiter: { n: number; resolve(): void } | undefined;
        const callCount = (n: number) =>
          calls.length >= n ? Promise.resolve() : new Promise<void>((resolve) => (waiter = { n, resolve }));
        const host = await bed.open(client);
        await host.page.exposeFunction('noteCall', (n: string) => {
          calls.push(n);
          if (waiter && calls.length >= waiter.n) waiter.resolve();
        });
        await host.page.evaluate(() => {
          const w = window as unknown as {
            server: { callTool(p: { name: string }): Promise<unknown> };
            noteCall(n: string): void;
          };
          const call = w.server.callTool;
          w.server.callTool = (p) => {
            w.noteCall(p.name);
            return call(p);
          };
        });
        // The React example goes through the one-call openAppView, the vanilla one step by step.
        await host.mount({
          tool: 'get-time',
          args: {},
          hostContext: { theme: 'light', locale: 'en-US' },
          oneCall: name === 'react',
        });
        const first = await until(host, name);
        assert.match(first, ISO_TIME, 'the view shows the tool result');
        assert.deepEqual(calls, ['get-time'], 'the host made the first call');
        await host.view.getByRole('button', { name: /get server time/i }).click();
        await callCount(2);
        assert.deepEqual(calls, ['get-time', 'get-time'], "the view's callServerTool went through the host");
        if (name === 'vanillajs') {
          await host.view.locator('#send-message-btn').click();
          const message = await host.event('message');
          assert.deepEqual((message[1] as { content: unknown[] }).content, [
            { type: 'text', text: 'This is message text.' },
          ]);
          await host.view.locator('#open-link-btn').click();
          assert.deepEqual(await host.event('open-link'), ['open-link', 'https://modelcontextprotocol.io/']);
          await host.view.locator('#send-log-btn').click();
          assert.equal(((await host.event('log'))[1] as { data: unknown }).data, 'This is log text.');
        }
        await host.screenshot(`example-${name}`);
        await host.close();
      } finally {
        await client.close();
      }
    });
  }
});

/** The server time the view shows, once it shows one. */
async function until(
  host: import('../../test-support/apps-harness.js').HostPage,
  name: string,
): Promise<string> {
  const locator =
    name === 'vanillajs' ? host.view.locator('#server-time') : host.view.getByText(ISO_TIME).first();
  await locator.filter({ hasText: ISO_TIME }).first().waitFor();
  const text = (await locator.first().textContent()) ?? '';
  const m = ISO_TIME.exec(text.trim()) ?? /\d{4}-\d\d-\d\dT[\d:.]+Z?/.exec(text);
  return m ? text.trim().slice(text.trim().indexOf(m[0])) : text;
}
