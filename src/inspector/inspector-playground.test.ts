/**
 * The inspector's Playground in real Chromium, against a scripted OpenAI-compatible
 * endpoint this test starts on 127.0.0.1: the person asks, the model calls a demo tool, the
 * result and the answer show in the chat; a server's sampling request is approved and
 * answered by the model (what the endpoint received is checked); the person can still type
 * the model's reply; and a model endpoint that hangs, fails or answers garbage gives a
 * clear error while the page stays usable. Both eras: the stdio demo server through the CLI
 * (`--model openai:…`, the key and URL from the environment) and the HTTP demo server with
 * the model from the config's `llm` section.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { parseHostConfig } from '../host/index.js';
import {
  NO_CHROMIUM,
  artifactsDir,
  CLI,
  closePage,
  DEMO_STDIO,
  docsShot,
  launchChromium,
  lineMatching,
  openPage,
  runFromPage,
} from '../test-support/inspector-harness.js';
import { startDemoProcess } from '../test-support/demo-process.js';
import { lastToolResult, offeredTool, startScriptedOpenAi } from '../test-support/openai-scripted-server.js';
import type { ScriptedOpenAi } from '../test-support/openai-scripted-server.js';
import { InspectorHost } from './inspector-host.js';
import { startInspectorServer } from './server.js';

interface Target {
  url: string;
  close(): Promise<void>;
}

/** Presses Tab until the focused element matches `selector`; false if it never does. */
async function tabTo(page: Page, selector: string, max = 80): Promise<boolean> {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return true;
    await page.keyboard.press('Tab');
  }
  return false;
}

/** Opens the Playground from the header by keyboard alone. */
async function openPlayground(page: Page): Promise<void> {
  await page.locator('body').focus();
  assert.ok(await tabTo(page, '[data-screen=playground]'), 'Tab reaches the Playground tab');
  await page.keyboard.press('Enter');
  await page.getByTestId('playground').waitFor();
}

/** Types a message and sends it with Enter. */
async function ask(page: Page, text: string): Promise<void> {
  const input = page.getByTestId('pg-input');
  await input.focus();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

/**
 * What a screenshot shows inside a box: decoded in the page itself (createImageBitmap), the
 * share of pixels that differ from the box's commonest colour (text, borders), and the
 * largest luminance contrast against that colour.
 */
async function inked(page: Page, png: Buffer, box: { x: number; y: number; width: number; height: number }) {
  return page.evaluate(
    async ({ b64, box }) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(bitmap, 0, 0);
      const x = Math.max(0, Math.floor(box.x));
      const y = Math.max(0, Math.floor(box.y));
      const w = Math.min(bitmap.width - x, Math.ceil(box.width));
      const h = Math.min(bitmap.height - y, Math.ceil(box.height));
      const d = ctx.getImageData(x, y, w, h).data;
      const counts = new Map<number, number>();
      for (let i = 0; i < d.length; i += 4) {
        const k = (d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!;
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      const bg = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
      const lum = (r: number, g: number, b: number): number => {
        const f = (c: number): number => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
      };
      const lbg = lum(bg >> 16, (bg >> 8) & 255, bg & 255);
      let other = 0;
      let contrast = 1;
      for (let i = 0; i < d.length; i += 4) {
        const k = (d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!;
        if (k === bg) continue;
        other++;
        const l = lum(d[i]!, d[i + 1]!, d[i + 2]!);
        contrast = Math.max(contrast, (Math.max(l, lbg) + 0.05) / (Math.min(l, lbg) + 0.05));
      }
      return { ink: other / (w * h), contrast, width: bitmap.width, height: bitmap.height };
    },
    { b64: png.toString('base64'), box },
  );
}

async function boxOf(l: Locator) {
  const b = await l.boundingBox();
  assert.ok(b, 'the element is laid out');
  return b;
}

describe('inspector playground in Chromium', { skip: NO_CHROMIUM }, () => {
  let browser: Browser;
  let llm: ScriptedOpenAi;

  before(async () => {
    browser = (await launchChromium())!;
    llm = await startScriptedOpenAi();
  });
  after(async () => {
    await browser?.close();
    await llm?.close();
  });
  beforeEach(() => llm.reset());

  const targets: Array<{ name: string; start(): Promise<Target> }> = [
    {
      name: 'stdio demo server (modern era), mcpkit inspect --model openai:scripted-model',
      start: async () => {
        const cli = spawn(
          process.execPath,
          [
            CLI,
            'inspect',
            '--port',
            '0',
            '--model',
            'openai:scripted-model',
            '--',
            process.execPath,
            DEMO_STDIO,
          ],
          {
            stdio: ['ignore', 'pipe', 'pipe'],
            // The key and the endpoint come from the environment, as the OpenAI SDK reads them.
            env: { ...process.env, OPENAI_BASE_URL: llm.baseURL, OPENAI_API_KEY: 'test-key-from-env' },
          },
        );
        const url = await lineMatching(cli, 'stdout', /open (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/);
        return {
          url,
          close: async () => {
            cli.kill('SIGTERM');
            if (cli.exitCode === null) await new Promise((r) => cli.once('exit', r));
          },
        };
      },
    },
    {
      name: "HTTP demo server (legacy era), the model from the config's llm section",
      start: async () => {
        const demo = await startDemoProcess();
        const config = parseHostConfig({
          mcpServers: { web: { url: demo.url, era: 'legacy' } },
          mcpkit: {
            llm: {
              providers: { local: { type: 'openai', baseURL: llm.baseURL } },
              models: [{ id: 'scripted-model', provider: 'local' }],
            },
          },
        });
        const session = new InspectorHost({ ...config, defaultDecision: 'allow' });
        const server = await startInspectorServer(session);
        await session.start();
        return {
          url: server.url,
          close: async () => {
            await server.close();
            await session.close();
            await demo.stop();
          },
        };
      },
    },
  ];

  for (const [i, target] of targets.entries()) {
    describe(target.name, () => {
      let t: Target;
      before(async () => {
        t = await target.start();
      });
      after(() => t?.close());

      test('chat: the model calls a tool, its result and the answer show inline; keyboard; a checked screenshot', async () => {
        const page = await openPage(browser, t.url);
        await openPlayground(page);
        assert.equal(await page.getByTestId('pg-model').innerText(), 'scripted-model');
        const first = llm.requests.length;
        llm.push(
          (r) => ({ toolCall: { name: offeredTool(r, 'add'), arguments: { a: 2, b: 40 } } }),
          (r) => ({ text: `The sum is ${/\d+/.exec(lastToolResult(r))?.[0] ?? '?'}.` }),
        );
        await ask(page, 'What is 2 + 40?');
        const final = page.getByTestId('pg-final');
        await final.filter({ hasText: 'The sum is 42.' }).waitFor();
        const tool = page.locator('[data-testid=pg-tool][data-tool=add]');
        assert.match(await tool.innerText(), /42/);
        assert.match(await page.getByTestId('pg-toolcall').last().innerText(), /"a": 2/);
        // What the model endpoint was sent: the question with the tools, then the tool's result.
        const asked = await llm.request(first + 1);
        assert.equal(asked.body.model, 'scripted-model');
        assert.equal(asked.body.messages?.at(-1)?.content, 'What is 2 + 40?');
        const answered = await llm.request(first + 2);
        assert.equal(answered.body.messages?.at(-1)?.role, 'tool');
        assert.match(lastToolResult(answered), /42/);
        if (i === 0) assert.equal(asked.headers.authorization, 'Bearer test-key-from-env');
        // The input is empty and ready again.
        assert.equal(await page.getByTestId('pg-input').inputValue(), '');
        // A screenshot whose pixels are checked: the question sits right, the answer left,
        // both carry readable text, and the input is below the chat.
        const png = await page.screenshot({
          path: join(artifactsDir(), `playground-${i ? 'http' : 'stdio'}.png`),
        });
        if (i === 0) await docsShot(page, 'playground');
        const user = await boxOf(page.getByTestId('pg-user').last());
        const answer = await boxOf(final.last());
        const log = await boxOf(page.getByTestId('pg-log'));
        const input = await boxOf(page.getByTestId('pg-input'));
        assert.ok(
          user.x > answer.x + answer.width / 2,
          'the question is on the right, the answer on the left',
        );
        assert.ok(input.y >= log.y + log.height, 'the input is below the chat');
        for (const [what, box] of [
          ['question', user],
          ['answer', answer],
          ['tool result', await boxOf(tool)],
        ] as const) {
          const seen = await inked(page, png, box);
          assert.ok(seen.ink > 0.02 && seen.ink < 0.9, `the ${what} shows text (${seen.ink})`);
          assert.ok(seen.contrast >= 4.5, `the ${what}'s text is readable (contrast ${seen.contrast})`);
        }
        await closePage(page);
      });

      test('sampling: the request shows in the chat, Approve (by keyboard) lets the model answer it', async () => {
        const page = await openPage(browser, t.url);
        await openPlayground(page);
        await page.getByTestId('pg-clear').click();
        const first = llm.requests.length;
        llm.push(
          (r) => ({
            toolCall: { name: offeredTool(r, 'test_sampling'), arguments: { prompt: 'Say hello' } },
          }),
          { text: 'Hello from the model' },
          (r) => ({ text: `The server got: ${lastToolResult(r)}` }),
        );
        await ask(page, 'Try sampling');
        const q = page.getByTestId('pg-log').locator('[data-question=sampling]');
        await q.waitFor();
        assert.match(await q.innerText(), /Say hello[\s\S]*Let scripted-model answer[\s\S]*Approve/);
        // Keyboard: from the input, Tab reaches Approve; Enter presses it.
        await page.getByTestId('pg-input').focus();
        assert.ok(await tabTo(page, '[data-answer=approve]'), 'Tab reaches Approve');
        await page.keyboard.press('Enter');
        await page.getByTestId('pg-sampled').filter({ hasText: 'Hello from the model' }).waitFor();
        await page
          .getByTestId('pg-final')
          .filter({ hasText: 'LLM response: Hello from the model' })
          .waitFor();
        // The sampling request reached the endpoint as the server sent it, without tools.
        const sampled = await llm.request(first + 2);
        assert.equal(sampled.body.model, 'scripted-model');
        assert.deepEqual(sampled.body.messages, [{ role: 'user', content: 'Say hello' }]);
        assert.equal(sampled.body.tools, undefined);
        await closePage(page);
      });
    });
  }

  describe('stdio demo server with a model: the typed reply, Edit, and bad model answers', () => {
    let t: Target;
    before(async () => {
      t = await targets[0]!.start();
    });
    after(() => t?.close());

    test('the person can still type the model reply, and Edit changes what the model is sent', async () => {
      const page = await openPage(browser, t.url);
      const before = llm.requests.length;
      const typed = runFromPage(page, 'test_sampling', { prompt: 'Say hi' });
      const s = page.locator('[data-question=sampling]');
      await s.waitFor();
      await s.getByTestId('sampling-reply').fill('typed by the person');
      await s.locator('[data-answer=send]').click();
      assert.match(await typed, /LLM response: typed by the person/);
      assert.equal(llm.requests.length, before, 'the model endpoint was not asked');
      // Edit: the request as JSON, changed, then approved for the model.
      llm.push((r) => ({ text: `edited: ${String(r.body.messages?.[0]?.content)}` }));
      const edited = runFromPage(page, 'test_sampling', { prompt: 'Original prompt' });
      await s.waitFor();
      await s.locator('[data-answer=edit]').click();
      const box = s.getByTestId('sampling-edit');
      await box.fill((await box.inputValue()).replace('Original prompt', 'Edited prompt'));
      await s.locator('[data-answer=approve]').click();
      assert.match(await edited, /LLM response: edited: Edited prompt/);
      assert.equal((await llm.request(before + 1)).body.messages?.[0]?.content, 'Edited prompt');
      await closePage(page);
    });

    test('an MCP App view and an elicitation question show inline in the chat', async () => {
      const page = await openPage(browser, t.url);
      await openPlayground(page);
      await page.getByTestId('pg-clear').click();
      llm.push(
        (r) => ({ toolCall: { name: offeredTool(r, 'show_counter'), arguments: { start: 5 } } }),
        (r) => ({
          toolCall: { name: offeredTool(r, 'test_elicitation'), arguments: { message: 'Who are you?' } },
        }),
        (r) => ({ text: `Done: ${lastToolResult(r)}` }),
      );
      await ask(page, 'Show the counter, then ask me who I am');
      const log = page.getByTestId('pg-log');
      const slot = log.locator('[data-testid=pg-tool][data-tool=show_counter]').getByTestId('app-slot');
      await slot.getByTestId('app-status').filter({ hasText: 'ready' }).waitFor();
      const q = log.locator('[data-question=elicit-form]');
      await q.waitFor();
      assert.match(await q.innerText(), /Who are you\?/);
      await q.locator('[data-path=username]').fill('ada');
      await q.locator('[data-path=email]').fill('ada@example.com');
      await q.locator('[data-answer=accept]').click();
      await page
        .getByTestId('pg-final')
        .filter({ hasText: /Done: .*action=accept/ })
        .waitFor();
      // Answered questions leave the chat; the page's banner is not shown on this screen.
      assert.equal(await log.locator('[data-question]').count(), 0);
      assert.equal(await page.getByTestId('questions').count(), 0);
      await closePage(page);
    });

    test('a hanging, failing or garbled model endpoint gives a clear error; the chat goes on', async () => {
      const page = await openPage(browser, t.url);
      await openPlayground(page);
      await page.getByTestId('pg-clear').click();
      const errors = page.getByTestId('pg-error');
      // Hangs: the visible timeout ends the turn.
      await page.getByTestId('pg-timeout').fill('3');
      llm.push('hang');
      await ask(page, 'Are you there?');
      assert.match(await page.getByTestId('pg-running').innerText(), /times out in \d+ s/);
      await errors.filter({ hasText: /No answer within 3 s/ }).waitFor();
      // Hangs again: Stop ends it.
      await page.getByTestId('pg-timeout').fill('60');
      llm.push('hang');
      await ask(page, 'Still there?');
      await page.getByTestId('pg-stop').click();
      await errors.filter({ hasText: /^Stopped$/ }).waitFor();
      // HTTP 500 (the SDK retries once).
      const failed = { status: 500, body: JSON.stringify({ error: { message: 'the model crashed' } }) };
      llm.push(failed, failed);
      await ask(page, 'Fail please');
      await errors.filter({ hasText: /HTTP 500/ }).waitFor();
      // A body that is not JSON, and JSON without choices.
      llm.push({ status: 200, body: '{"choices": [ not json' });
      await ask(page, 'Garble please');
      await errors.nth(3).waitFor();
      assert.match(await errors.nth(3).innerText(), /model/i);
      llm.push({ status: 200, body: '{"object":"chat.completion"}' });
      await ask(page, 'Empty please');
      await errors.filter({ hasText: /The chat completion has no choices/ }).waitFor();
      // The page is still usable, and the failed turns were left out of the model's history.
      const before = llm.requests.length;
      llm.push({ text: 'Back to normal' });
      await ask(page, 'Hello again');
      await page.getByTestId('pg-final').filter({ hasText: 'Back to normal' }).waitFor();
      const sent = (await llm.request(before + 1)).body.messages ?? [];
      assert.deepEqual(
        sent.filter((m) => m.role === 'user').map((m) => m.content),
        ['Hello again'],
      );
      await closePage(page);
    });
  });

  describe('no model configured: the person answers as the model', () => {
    let t: Target;
    before(async () => {
      const config = parseHostConfig({
        mcpServers: { demo: { command: process.execPath, args: [DEMO_STDIO] } },
      });
      const session = new InspectorHost({ ...config, defaultDecision: 'allow' });
      const server = await startInspectorServer(session);
      await session.start();
      t = {
        url: server.url,
        close: async () => {
          await server.close();
          await session.close();
        },
      };
    });
    after(() => t?.close());

    test('the chat asks the person for the answer', async () => {
      const page = await openPage(browser, t.url);
      await openPlayground(page);
      assert.match(await page.getByTestId('pg-model').innerText(), /you answer as the model/);
      await ask(page, 'Who answers?');
      const typing = page.getByTestId('pg-typing');
      await typing.waitFor();
      await typing.getByTestId('pg-type').fill('I do, the person');
      await typing.getByTestId('pg-type-send').click();
      await page.getByTestId('pg-final').filter({ hasText: 'I do, the person' }).waitFor();
      await closePage(page);
    });
  });
});
