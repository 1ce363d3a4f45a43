/**
 * The inspector in Chromium against the official server-everything: every tool called from
 * its form in the page (the task tool too, its status shown on the call), every question
 * answered there.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { NO_CHROMIUM, closePage, openPage, runFromPage, shot } from '../test-support/inspector-harness.js';
import { EVERYTHING, launchChromium, startInspector } from '../test-support/inspector-harness.js';
import type { RunningInspector } from '../test-support/inspector-harness.js';

describe('inspector and server-everything in Chromium', { skip: NO_CHROMIUM }, () => {
  let browser: Browser;

  before(async () => {
    browser = (await launchChromium())!;
  });
  after(() => browser?.close());

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
