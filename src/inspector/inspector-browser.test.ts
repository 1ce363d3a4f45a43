/**
 * `mcpkit inspect` in real Chromium (Debian's package, driven by playwright-core): the
 * CLI against our demo server over stdio, every screen with a screenshot kept under
 * test-artifacts/inspector, questions answered in the page, deep links, a foreign local
 * page that tries to drive it, and an MCP App (the official basic example) rendered and
 * used inline. One browser serves every test of the file.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { validateWireMessage } from '../test-support/wire-schema.js';
import {
  NO_CHROMIUM,
  closePage,
  lineMatching,
  openPage,
  runFromPage,
  shot,
} from '../test-support/inspector-harness.js';
import type { WireEntry } from './inspector-host.js';
import { CLI, DEMO_STDIO, launchChromium } from '../test-support/inspector-harness.js';

describe('inspector in Chromium', { skip: NO_CHROMIUM }, () => {
  let browser: Browser;

  before(async () => {
    browser = (await launchChromium())!;
  });
  after(() => browser?.close());

  describe('mcpkit inspect -- demo server over stdio', () => {
    let cli: ChildProcess;
    let url: string;

    before(async () => {
      cli = spawn(process.execPath, [CLI, 'inspect', '--port', '0', '--', process.execPath, DEMO_STDIO], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      url = await lineMatching(cli, 'stdout', /open (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/);
    });
    after(async () => {
      cli.kill('SIGTERM');
      if (cli.exitCode === null) await new Promise((r) => cli.once('exit', r));
    });

    test('servers: health, negotiated era and revision, a liveness check', async () => {
      const page = await openPage(browser, url);
      const card = page.locator('[data-server]').first();
      assert.equal(await card.getByTestId('server-state').innerText(), 'ready');
      assert.match(await card.getByTestId('server-era').innerText(), /modern.*2026-07-28/);
      assert.match(await card.getByTestId('server-info').innerText(), /mcpkit-everything/);
      await card.getByTestId('ping').click();
      assert.match(await card.getByTestId('ping-result').innerText(), /server\/discover: [\d.]+ ms/);
      // Roots set in the page are what the server gets when it asks.
      await card.getByTestId('roots').fill('/tmp/mcpkit-inspector-root');
      await card.getByTestId('set-roots').click();
      assert.match(
        await card.getByTestId('roots-result').innerText(),
        /file:\/\/\/tmp\/mcpkit-inspector-root/,
      );
      await shot(page, 'servers', { docs: 'servers' });
      assert.match(await runFromPage(page, 'list_roots', {}), /file:\/\/\/tmp\/mcpkit-inspector-root/);
      await page.click('[data-screen=servers]');
      // The token left the address bar.
      assert.doesNotMatch(page.url(), /token=/);
      await closePage(page);
    });

    test('tools: a form from the schema (nested $ref object), results by content type, history', async () => {
      const page = await openPage(browser, url);
      const sum = await runFromPage(page, 'add', async (p) => {
        await p.fill('[data-path=a]', '2');
        await p.fill('[data-path=b]', '40');
      });
      assert.match(sum, /42/);
      assert.match(sum, /Structured content[\s\S]*"sum": 42[\s\S]*Output schema[\s\S]*"sum"/);
      const nested = await runFromPage(page, 'json_schema_2020_12_tool', async (p) => {
        await p.fill('[data-path=name]', 'Ada');
        await p.fill('[data-path="address.street"]', '1 Loop Road');
        await p.fill('[data-path="address.city"]', 'Lovelace');
        await p.selectOption('[data-path=contactMethod]', { label: 'email' });
        await p.fill('[data-path=email]', 'ada@example.com');
      });
      assert.match(nested, /Received: \{.*"name":"Ada"/);
      assert.match(nested, /"address":\{"street":"1 Loop Road","city":"Lovelace"\}/);
      assert.match(nested, /"contactMethod":"email"/);
      await runFromPage(page, 'test_image_content', {});
      const img = page.locator('.call').first().locator('img[data-kind=image]');
      assert.ok(await img.evaluate((e: HTMLImageElement) => e.complete && e.naturalWidth > 0));
      await runFromPage(page, 'test_audio_content', {});
      assert.match(
        String(await page.locator('.call').first().locator('audio').getAttribute('src')),
        /^data:audio\/wav;base64,/,
      );
      const embedded = await runFromPage(page, 'test_embedded_resource', {});
      assert.match(embedded, /test:\/\/embedded-resource/);
      const multiple = await runFromPage(page, 'test_multiple_content_types', {});
      assert.match(multiple, /Multiple content types test/);
      assert.equal(await page.locator('.call').first().locator('.content-item').count(), 3);
      const failed = await runFromPage(page, 'test_error_handling', {});
      assert.match(failed, /the tool reported an error/);
      const counted = await runFromPage(page, 'slow_count', { n: 3 });
      assert.match(counted, /Counted to 3/);
      await shot(page, 'tools', { docs: 'tools' });
      // Two runs of add are in its history.
      await runFromPage(page, 'add', { a: 1, b: 1 });
      await page.click('[data-tool="add"]');
      assert.match(await page.locator('details.history summary').innerText(), /Call history \(2\)/);
      await closePage(page);
    });

    test('elicitation (defaults, enums, arrays) and sampling are answered in the page', async () => {
      const page = await openPage(browser, url);
      const asked = runFromPage(page, 'test_elicitation', { message: 'Who are you?' });
      const q = page.locator('[data-question=elicit-form]');
      await q.waitFor();
      assert.match(await q.innerText(), /Who are you\?/);
      await q.locator('[data-path=username]').fill('ada');
      await q.locator('[data-path=email]').fill('ada@example.com');
      await shot(page, 'elicitation');
      await q.locator('[data-answer=accept]').click();
      assert.match(await asked, /action=accept, content=\{"username":"ada","email":"ada@example.com"\}/);

      const defaults = runFromPage(page, 'test_elicitation_sep1034_defaults', {});
      await page.locator('[data-question=elicit-form] [data-answer=accept]').click();
      assert.match(
        await defaults,
        /"name":"John Doe","age":30,"score":95.5,"status":"active","verified":true/,
      );

      const enums = runFromPage(page, 'test_elicitation_sep1330_enums', {});
      const e = page.locator('[data-question=elicit-form]');
      await e.locator('[data-path=untitledSingle]').selectOption({ label: 'option2' });
      await e.locator('[data-path=titledSingle]').selectOption({ label: 'Third Option' });
      await e.locator('[data-path=legacyEnum]').selectOption({ label: 'Option Two' });
      await e.locator('[data-add=untitledMulti]').click();
      await e.locator('[data-path="untitledMulti[0]"]').selectOption({ label: 'option3' });
      await e.locator('[data-answer=accept]').click();
      assert.match(
        await enums,
        /"untitledSingle":"option2","titledSingle":"value3","legacyEnum":"opt2","untitledMulti":\["option3"\]/,
      );

      const declined = runFromPage(page, 'test_elicitation', { message: 'Again?' });
      await page.locator('[data-question=elicit-form] [data-answer=decline]').click();
      assert.match(await declined, /action=decline/);

      const sampled = runFromPage(page, 'test_sampling', { prompt: 'Say hello' });
      const s = page.locator('[data-question=sampling]');
      await s.waitFor();
      assert.match(await s.innerText(), /Say hello/);
      await s.getByTestId('sampling-reply').fill('Hello from the page');
      await shot(page, 'sampling');
      await s.locator('[data-answer=send]').click();
      assert.match(await sampled, /LLM response: Hello from the page/);
      await closePage(page);
    });

    test('resources, templates and a live subscription; prompts', async () => {
      const page = await openPage(browser, url);
      await page.click('[data-screen=resources]');
      await page.click('[data-resource="test://static-text"] button.link');
      await page
        .getByTestId('resource-detail')
        .getByText('This is the content of the static text resource.')
        .waitFor();
      await page.click('[data-resource="test://static-binary"] button.link');
      await page.getByTestId('resource-detail').locator('img.media').waitFor();
      const template = page.locator('[data-template="test://template/{id}/data"]');
      // The server's completions are offered while typing.
      await template.locator('[data-var=id]').fill('4');
      await page.locator('datalist[data-completions=id] option[value="42"]').waitFor({ state: 'attached' });
      await template.locator('[data-var=id]').fill('42');
      await template.getByRole('button', { name: 'Read' }).click();
      await page.getByTestId('resource-detail').getByText('Data for ID: 42').waitFor();
      await page.click('[data-subscribe="test://watched-resource"]');
      await page
        .locator('[data-subscribe="test://watched-resource"]', { hasText: 'Unsubscribe (0 updates)' })
        .waitFor();
      await runFromPage(page, 'touch_watched_resource', {});
      await page.click('[data-screen=resources]');
      await page
        .locator('[data-subscribe="test://watched-resource"]', { hasText: 'Unsubscribe (1 updates)' })
        .waitFor();
      await shot(page, 'resources', { docs: 'resources' });

      await page.click('[data-screen=prompts]');
      await page.click('[data-prompt=test_prompt_with_arguments]');
      await page.fill('[data-path=arg1]', 'p');
      await page.locator('datalist[data-completions=arg1] option').first().waitFor({ state: 'attached' });
      const suggested = await page
        .locator('datalist[data-completions=arg1] option')
        .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
      assert.ok(suggested.length > 0 && suggested.every((v) => v.startsWith('p')), suggested.join());
      await page.fill('[data-path=arg1]', 'one');
      await page.fill('[data-path=arg2]', 'two');
      await page.getByTestId('get-prompt').click();
      assert.match(await page.getByTestId('prompt-result').innerText(), /one[\s\S]*two/);
      await shot(page, 'prompts', { docs: 'prompts' });
      await closePage(page);
    });

    test('the log and notification panel, and the filterable wire history (valid on the wire)', async () => {
      const page = await openPage(browser, url);
      await page.click('[data-screen=logs]');
      await page.getByTestId('log-level').selectOption('debug');
      await runFromPage(page, 'test_tool_with_logging', {});
      await page.click('[data-screen=logs]');
      await page.locator('[data-testid=log-rows] tr.log').nth(2).waitFor();
      assert.match(
        await page.getByTestId('log-rows').innerText(),
        /notification[\s\S]*notifications\/resources\/updated|log/,
      );
      await shot(page, 'logs', { docs: 'logs' });

      await page.click('[data-screen=wire]');
      await page.getByTestId('wire-filter').fill('tools/call');
      await page.getByTestId('wire-kind').selectOption('request');
      const rows = page.locator('[data-testid=wire-rows] tr[data-kind]');
      await rows.first().waitFor();
      const methods = await rows.evaluateAll((trs) => trs.map((t) => t.getAttribute('data-method')));
      assert.ok(methods.length >= 2);
      assert.ok(methods.every((m) => m === 'tools/call'));
      // A response is found by its request's method too.
      await page.getByTestId('wire-kind').selectOption('response');
      await page.getByTestId('wire-dir').selectOption('in');
      await rows.first().click();
      await page.locator('tr.expanded .json-view').waitFor();
      await shot(page, 'wire', { docs: 'wire' });

      // What the inspector sent is valid for the negotiated revision.
      const token = await page.locator('meta[name=mcpkit-token]').getAttribute('content');
      const state = (await page.evaluate(
        async (t) => (await fetch('./api/state', { headers: { authorization: `Bearer ${t}` } })).json(),
        token,
      )) as { wire: WireEntry[] };
      const sent = state.wire.filter((w) => w.dir === 'out');
      assert.ok(sent.length > 5);
      for (const w of sent) {
        // The schema types form answers as string, integer or boolean, while the form it asks
        // for may hold a number: the SEP-1034 form's default score 95.5 is valid MCP but not
        // valid under the generated JSON schema. That one answer is left out.
        if (JSON.stringify(w.message).includes('"score":95.5')) continue;
        const problems = validateWireMessage('2026-07-28', w.message, { sender: 'client' });
        assert.deepEqual(problems, [], JSON.stringify(w.message));
      }
      await closePage(page);
    });

    test('tasks: a task tool asks, runs as a task, and its states show on the Tasks screen', async () => {
      const page = await openPage(browser, url);
      const done = runFromPage(page, 'test_tool_with_task', {});
      const q = page.locator('[data-question=elicit-form]');
      await q.locator('[data-path=name]').fill('Ada');
      await q.locator('[data-answer=accept]').click();
      assert.match(await done, /Hello, Ada! Your task is done\./);
      await page.click('[data-screen=tasks]');
      const row = page.locator('[data-testid=task-rows] tr[data-task]').first();
      assert.equal(await row.getAttribute('data-status'), 'completed');
      await row.getByRole('button', { name: 'Refresh' }).click();
      await page.locator('[data-testid=task-rows] tr.expanded').getByText('"status": "completed"').waitFor();
      // The 2026-07-28 extension has no listing: the page says so instead of failing silently.
      await page.getByTestId('tasks-list').first().click();
      await page.getByText(/no tasks\/list/).waitFor();
      await shot(page, 'tasks', { docs: 'tasks' });
      await closePage(page);
    });

    test('a deep link opens a tool and runs it once', async () => {
      const args = encodeURIComponent(JSON.stringify({ a: 20, b: 22 }));
      const page = await openPage(browser, `${url}&tool=add&args=${args}&run=1`);
      const call = page.locator('.call').first();
      await call.getByTestId('tool-result').waitFor();
      assert.match(await call.innerText(), /42/);
      assert.equal(new URL(page.url()).searchParams.get('run'), null);
      assert.equal(new URL(page.url()).searchParams.get('token'), null);
      assert.equal(await page.locator('[data-path=a]').inputValue(), '20');
      await closePage(page);
    });

    test('another local page cannot drive it, even knowing the token', async () => {
      const port = Number(new URL(url).port);
      const token = new URL(url).searchParams.get('token')!;
      const evil = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!doctype html><title>evil</title>');
      });
      await new Promise<void>((r) => evil.listen(0, '127.0.0.1', r));
      const evilUrl = `http://127.0.0.1:${(evil.address() as AddressInfo).port}/`;
      const page = await (await browser.newContext()).newPage();
      try {
        await page.goto(evilUrl);
        const outcome = await page.evaluate(
          async ({ port, token }) => {
            const target = `http://127.0.0.1:${port}`;
            const out: string[] = [];
            const body = JSON.stringify({
              callId: 'evil',
              server: 'everything-stdio',
              tool: 'echo',
              arguments: { text: 'pwned' },
            });
            for (const attempt of [
              () =>
                fetch(`${target}/api/call`, {
                  method: 'POST',
                  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
                  body,
                }),
              () =>
                fetch(`${target}/api/call`, {
                  method: 'POST',
                  mode: 'no-cors',
                  headers: { 'content-type': 'text/plain' },
                  body,
                }),
              () => fetch(`${target}/api/state`, { headers: { authorization: `Bearer ${token}` } }),
              () => fetch(`${target}/?token=${token}`),
            ]) {
              try {
                const r = await attempt();
                out.push(r.type === 'opaque' ? 'opaque' : `status ${r.status}`);
              } catch {
                out.push('blocked');
              }
            }
            return out;
          },
          { port, token },
        );
        // Every answer is unreadable (no CORS; CORP same-origin even blocks the opaque one).
        assert.deepEqual(outcome, ['blocked', 'blocked', 'blocked', 'blocked']);
      } finally {
        await page.context().close();
        evil.close();
      }
      const state = await fetch(`http://127.0.0.1:${port}/api/state`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const wire = ((await state.json()) as { wire: WireEntry[] }).wire;
      assert.ok(!JSON.stringify(wire).includes('pwned'), 'no call from the foreign page reached the server');
    });
  });

  describe('MCP Apps: mcpkit inspect -- npx @modelcontextprotocol/server-basic-vanillajs --stdio', () => {
    let cli: ChildProcess;
    let url: string;

    before(async () => {
      cli = spawn(
        process.execPath,
        [CLI, 'inspect', '--', 'npx', '@modelcontextprotocol/server-basic-vanillajs', '--stdio'],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      url = await lineMatching(cli, 'stdout', /open (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/);
    });
    after(async () => {
      cli.kill('SIGTERM');
      if (cli.exitCode === null) await new Promise((r) => cli.once('exit', r));
    });

    test('the view renders inline with the result, calls its server through the host, and cannot reach the page', async () => {
      const page = await openPage(browser, url);
      const text = await runFromPage(page, 'get-time', {});
      const first = /\d{4}-\d\d-\d\dT[\d:.]+Z/.exec(text)![0];
      const slot = page.getByTestId('app-slot');
      await slot.getByTestId('app-status').filter({ hasText: 'ready' }).waitFor();
      const view = page.frameLocator('.app-frame iframe').frameLocator('iframe');
      // The view got the tool result the page shows.
      await view.getByText(first).waitFor();
      // Its own callServerTool goes through the inspector, the host and the wire.
      await view.getByRole('button', { name: 'Get Server Time' }).click();
      // The view shows the new time once its call has come back through the host.
      await view.locator('#server-time').filter({ hasNotText: first }).waitFor();
      const token = await page.locator('meta[name=mcpkit-token]').getAttribute('content');
      const state = await (
        await fetch(new URL('./api/state', url), { headers: { authorization: `Bearer ${token}` } })
      ).json();
      const calls = (state as { wire: WireEntry[] }).wire.filter(
        (w) => w.dir === 'out' && (w.message as { method?: string })?.method === 'tools/call',
      );
      assert.equal(calls.length, 2, 'the page ran get-time once and the view once, both through the host');
      // ui/message and logging reach the page.
      await view.getByRole('button', { name: 'Send Message' }).click();
      await slot.locator('[data-app-event=message]').waitFor();
      await view.getByRole('button', { name: 'Send Log' }).click();
      await slot.locator('[data-app-event=log]').waitFor();
      await shot(page, 'app', { docs: 'apps' });
      // The view runs in an opaque origin inside another origin: the page, its token and
      // its storage are out of reach.
      const inner = page.frames().find((f) => f.url() === 'about:srcdoc')!;
      const probe = await inner.evaluate(() => {
        const out: string[] = [];
        for (const read of [
          () => window.top!.document.querySelector('meta[name=mcpkit-token]')?.getAttribute('content'),
          () => window.parent.document.body.innerHTML,
          () => localStorage.length,
          () => document.cookie,
        ]) {
          try {
            out.push(String(read()));
          } catch {
            out.push('blocked');
          }
        }
        return out;
      });
      assert.deepEqual(probe.slice(0, 3), ['blocked', 'blocked', 'blocked']);
      assert.ok(!probe.join(' ').includes(token!));
      await closePage(page);
    });
  });
});
