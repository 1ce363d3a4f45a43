/**
 * The inspector in Chromium against every transport (stdio, Streamable HTTP, legacy
 * HTTP+SSE) and both eras of our demo server, and against the official server-everything:
 * every tool called from its form in the page, every question answered there. One
 * browser serves every test of the file.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { NO_CHROMIUM, closePage, lineMatching, openPage, runFromPage, shot } from './test-helpers.js';
import { CLI, DEMO_STDIO, EVERYTHING, launchChromium, startInspector } from './test-helpers.js';
import type { RunningInspector } from './test-helpers.js';

describe('inspector interop in Chromium', { skip: NO_CHROMIUM }, () => {
  let browser: Browser;

  before(async () => {
    browser = (await launchChromium())!;
  });
  after(() => browser?.close());

  describe('every transport and both eras', () => {
    let http: ChildProcess;
    let mcpUrl: string;

    before(async () => {
      http = spawn(process.execPath, [CLI, 'demo-server', '--port', '0'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      mcpUrl = await lineMatching(http, 'stderr', /demo server: (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
    });
    after(async () => {
      http.kill('SIGTERM');
      if (http.exitCode === null) await new Promise((r) => http.once('exit', r));
    });

    const cases: Array<[string, () => Record<string, unknown>, RegExp]> = [
      [
        'stdio, legacy era',
        () => ({ command: process.execPath, args: [DEMO_STDIO], era: 'legacy' }),
        /legacy.*2025-11-25/,
      ],
      ['Streamable HTTP, modern era', () => ({ url: mcpUrl, era: 'modern' }), /modern.*2026-07-28/],
      ['Streamable HTTP, legacy era', () => ({ url: mcpUrl, era: 'legacy' }), /legacy.*2025-11-25/],
      ['Streamable HTTP, auto era', () => ({ url: mcpUrl }), /modern.*2026-07-28/],
      [
        'legacy HTTP+SSE',
        () => ({ type: 'sse', url: mcpUrl.replace(/\/mcp$/, '/sse'), era: 'legacy' }),
        /legacy.*2025-11-25/,
      ],
    ];
    for (const [name, entry, era] of cases) {
      test(name, async () => {
        const insp: RunningInspector = await startInspector({ demo: entry() });
        try {
          const page = await openPage(browser, insp.server.url);
          assert.match(await page.getByTestId('server-era').innerText(), era);
          assert.ok((await runFromPage(page, 'echo', { text: `over ${name}` })).includes(`over ${name}`));
          const elicited = runFromPage(page, 'test_elicitation', { message: 'name?' });
          const q = page.locator('[data-question=elicit-form]');
          await q.locator('[data-path=username]').fill('u');
          await q.locator('[data-path=email]').fill('u@example.com');
          await q.locator('[data-answer=accept]').click();
          assert.match(await elicited, /action=accept/);
          await closePage(page);
        } finally {
          await insp.close();
        }
      });
    }
  });

  test('MCP Apps: the official React example renders inline and gets its result', async () => {
    // The package exports only its server module; its bin sits beside it in dist/.
    const react = join(
      dirname(fileURLToPath(import.meta.resolve('@modelcontextprotocol/server-basic-react'))),
      'index.js',
    );
    const insp = await startInspector({ react: { command: process.execPath, args: [react, '--stdio'] } });
    try {
      const page = await openPage(browser, insp.server.url);
      const text = await runFromPage(page, 'get-time', {});
      const time = /\d{4}-\d\d-\d\dT[\d:.]+Z/.exec(text)![0];
      await page.getByTestId('app-status').filter({ hasText: 'ready' }).waitFor();
      const view = page.frameLocator('.app-frame iframe').frameLocator('iframe');
      await view.getByText(time).waitFor();
      await view.getByRole('button', { name: 'Get Server Time' }).click();
      await view.getByText(time).waitFor({ state: 'detached' });
      await shot(page, 'app-react');
      await closePage(page);
    } finally {
      await insp.close();
    }
  });

  describe('server-everything: every tool callable from the page', () => {
    const TINY_GZIP_SOURCE = `data:text/plain;base64,${Buffer.from('hello mcpkit').toString('base64')}`;
    const ARGS: Record<string, Record<string, unknown>> = {
      echo: { message: 'hello' },
      'get-annotated-message': { messageType: 'success', includeImage: true },
      'get-resource-links': { count: 2 },
      'get-resource-reference': { resourceType: 'Text', resourceId: 1 },
      'get-structured-content': { location: 'Chicago' },
      'get-sum': { a: 2, b: 40 },
      'gzip-file-as-resource': { name: 'hello.gz', data: TINY_GZIP_SOURCE, outputType: 'resource' },
      'trigger-long-running-operation': { duration: 0.3, steps: 3 },
      'trigger-url-elicitation': { url: 'https://example.com/consent', message: 'Open it' },
      'trigger-sampling-request': { prompt: 'Say hi', maxTokens: 5 },
      // taskSupport "required": the call is task-augmented, its states shown on the call.
      'simulate-research-query': { topic: 'mcpkit' },
    };
    let insp: RunningInspector;

    before(async () => {
      insp = await startInspector({ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } });
    });
    after(() => insp.close());

    test('each tool runs from its form and gets a result', async () => {
      const page = await openPage(browser, insp.server.url);
      const tools = insp.session.catalog().tools.map((t) => t.name);
      assert.ok(tools.length >= 15, tools.join(', '));
      const ran: string[] = [];
      for (const tool of tools) {
        const result = runFromPage(page, tool, ARGS[tool] ?? {});
        // Answer whatever the tool asks on the way (a form may be asked again if an answer is refused).
        for (;;) {
          const next = await Promise.race([
            result.then(() => 'done'),
            page
              .locator('[data-question]')
              .first()
              .waitFor()
              .then(() => 'asked'),
          ]);
          if (next === 'done') break;
          const q = page.locator('[data-question]').first();
          const kind = await q.getAttribute('data-question');
          if (kind === 'sampling') {
            await q.getByTestId('sampling-reply').fill('hi');
            await q.locator('[data-answer=send]').click();
          } else if (kind === 'elicit-url') await q.locator('[data-answer=decline]').click();
          else {
            for (const input of await q.locator('input[data-path], textarea[data-path]').all()) {
              if ((await input.getAttribute('type')) === 'checkbox' || (await input.inputValue()) !== '')
                continue;
              const format = await input.getAttribute('data-format');
              const type = await input.getAttribute('type');
              await input.fill(
                format === 'email'
                  ? 'ada@example.com'
                  : format === 'uri'
                    ? 'https://example.com/'
                    : format === 'date'
                      ? '2000-01-01'
                      : type === 'number'
                        ? '1'
                        : 'x',
              );
            }
            await q.locator('[data-answer=accept]').click();
          }
          await q.waitFor({ state: 'detached' });
        }
        const text = await result;
        assert.doesNotMatch(text, /Refused or failed|the tool reported an error/, `${tool}: ${text}`);
        if (tool === 'simulate-research-query') {
          assert.match(text, /Research Report: mcpkit/);
          const task = page.locator('.call').first().getByTestId('call-task');
          await task.and(page.locator('[data-status=completed]')).waitFor();
          assert.match(await task.innerText(), /completed/);
        }
        ran.push(tool);
      }
      await shot(page, 'server-everything');
      assert.deepEqual(ran, tools);
      assert.ok(tools.includes('simulate-research-query'));
      await closePage(page);
    });
  });
});
