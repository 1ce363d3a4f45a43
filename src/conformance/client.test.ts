/**
 * The conformance client against our own HTTP server, without the suite (which needs
 * Node 22): each scenario does its work, unknown ones exit 2, and the program exits by
 * itself once done.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { McpServer } from '../server/index.js';
import { serve } from '../serve/index.js';
import type { RunningServer } from '../serve/index.js';
import { eraFor, runScenario } from './client.js';

const PROGRAM = fileURLToPath(new URL('./client.js', import.meta.url));

/** Runs the compiled client as the suite does; resolves with its exit code and stderr. */
function runProgram(
  scenario: string,
  url: string,
): Promise<{ code: number | null; stderr: string; ms: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [PROGRAM, url], {
    env: { ...process.env, MCP_CONFORMANCE_SCENARIO: scenario },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, ms: performance.now() - t0 });
    });
  });
}

describe('conformance client', () => {
  let running: RunningServer;
  const calls: Record<string, unknown>[] = [];

  before(async () => {
    const server = new McpServer({ name: 'conformance-mock', version: '1.0.0' });
    server.tool({ name: 'add_numbers', input: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => {
      calls.push({ tool: 'add_numbers', a, b });
      return `The sum of ${a} and ${b} is ${a + b}`;
    });
    server.tool({ name: 'test_client_elicitation_defaults', input: z.object({}) }, async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Accept with defaults',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', default: 'John Doe' },
            age: { type: 'integer', default: 30 },
            score: { type: 'number', default: 95.5 },
            status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
            verified: { type: 'boolean', default: true },
          },
        },
      });
      calls.push({ tool: 'test_client_elicitation_defaults', answer });
      return 'done';
    });
    running = await serve(server);
  });

  after(async () => {
    await running.close();
  });

  test('tools_call calls add_numbers', async () => {
    calls.length = 0;
    assert.equal(await runScenario('tools_call', running.url), 0);
    assert.deepEqual(calls, [{ tool: 'add_numbers', a: 5, b: 3 }]);
  });

  test('elicitation-sep1034-client-defaults accepts and the defaults fill the content', async () => {
    calls.length = 0;
    assert.equal(await runScenario('elicitation-sep1034-client-defaults', running.url), 0);
    assert.deepEqual(calls, [
      {
        tool: 'test_client_elicitation_defaults',
        answer: {
          action: 'accept',
          content: { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true },
        },
      },
    ]);
  });

  test('the era follows MCP_CONFORMANCE_PROTOCOL_VERSION', async () => {
    assert.deepEqual(eraFor(undefined), { era: 'legacy' });
    assert.deepEqual(eraFor('2026-07-28'), { era: 'modern' });
    assert.deepEqual(eraFor('2025-06-18'), {
      era: 'legacy',
      versions: ['2024-11-05', '2025-03-26', '2025-06-18'],
    });
    calls.length = 0;
    assert.equal(await runScenario('tools_call', running.url, '2026-07-28'), 0);
    assert.deepEqual(calls, [{ tool: 'add_numbers', a: 5, b: 3 }]);
  });

  test('initialize connects and leaves', async () => {
    assert.equal(await runScenario('initialize', running.url), 0);
  });

  test('a failing scenario exits 1', async () => {
    // sse-retry calls test_reconnection, which this server does not have.
    assert.equal(await runScenario('sse-retry', running.url), 1);
  });

  test('the program exits by itself after the scenario, with code 0', async () => {
    const { code, stderr, ms } = await runProgram('tools_call', running.url);
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stderr, /kept the process alive|gave up/);
    assert.ok(ms < 10_000, `took ${ms} ms`);
  });

  test('an unknown scenario exits 2 with a clear message', async () => {
    const { code, stderr } = await runProgram('no-such-scenario', running.url);
    assert.equal(code, 2);
    assert.match(stderr, /unsupported scenario "no-such-scenario"/);
  });

  test('no scenario or no URL is a usage error', async () => {
    const { code, stderr } = await runProgram('', 'not-a-url');
    assert.equal(code, 2);
    assert.match(stderr, /usage:/);
  });
});
