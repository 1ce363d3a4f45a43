/**
 * The host driving real servers at once: ours over stdio and over HTTP on loopback, and
 * the official server-everything and server-filesystem from npm as child processes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEverythingServer } from '../demo/everything-server.js';
import { serve } from '../serve/index.js';
import type { RunningServer } from '../serve/index.js';
import type { CatalogChange } from './catalog/catalog.js';
import { HostError } from './errors.js';
import type { Host } from './host.js';
import { ScriptedProvider, textAnswer, textOf, toolUse } from './llm/llm.js';
import { ALIAS_PATTERN } from './catalog/names.js';
import { EVERYTHING, FILESYSTEM, OURS, makeHost, nodeServer, tempDir } from '../test-support/host-harness.js';
import type { AuditTrail } from './policy/audit.js';
import type { ElicitResult } from '../protocol/types/index.js';
import type { ScriptedUi } from './ui/ui.js';
import { WAIT_MS, waitFor } from '../test-support/waiting.js';

const text = (r: { content: Array<{ type: string; text?: string }> }): string =>
  r.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');

describe('a host with four real servers', () => {
  let web: RunningServer;
  let host: Host;
  let ui: ScriptedUi;
  let trail: AuditTrail;
  let llm: ScriptedProvider;
  const opened: string[] = [];
  const changes: CatalogChange[] = [];
  const base = tempDir();
  const dirA = join(base, 'a');
  const dirB = join(base, 'b');

  before(async () => {
    mkdirSync(dirA);
    mkdirSync(dirB);
    writeFileSync(join(dirA, 'notes.txt'), 'alpha notes');
    writeFileSync(join(dirB, 'secret.txt'), 'beta secret');
    web = await serve(createEverythingServer({ stepMs: 5 }), { port: 0 });
    llm = new ScriptedProvider([]);
    ({ host, ui, trail } = makeHost(
      {
        ours: nodeServer(OURS, [], { env: { MCPKIT_DEMO_STEP_MS: '5' } }),
        everything: nodeServer(EVERYTHING, ['stdio'], { era: 'legacy' }),
        fs: nodeServer(FILESYSTEM, [dirA, dirB], { era: 'legacy', roots: [dirA] }),
        web: { url: web.url },
      },
      {
        top: { mcpkit: { roots: [base] } },
        llm: { provider: llm, model: 'scripted-model' },
        openUrl: async (u) => void opened.push(u),
      },
    ));
    host.on('catalog', (c) => changes.push(c));
    const health = await host.start();
    assert.deepEqual(
      health.map((h) => `${h.name}:${h.state}`),
      ['ours:ready', 'everything:ready', 'fs:ready', 'web:ready'],
      health.map((h) => h.lastError).join('\n'),
    );
  });

  after(async () => {
    await host.close();
    await web.close();
  });

  test('one catalog: namespaced, LLM-safe, and the three echo tools stay distinct', () => {
    const aliases = host.llmTools().map((t) => t.name);
    assert.equal(new Set(aliases).size, aliases.length);
    for (const a of aliases) assert.match(a, ALIAS_PATTERN);
    for (const a of [
      'ours__echo',
      'everything__echo',
      'web__echo',
      'fs__read_text_file',
      'everything__get-sum',
    ]) {
      assert.ok(aliases.includes(a), a);
    }
    const echo = host.catalog.resolve('everything__echo')!;
    assert.deepEqual([echo.server, echo.name, echo.status], ['everything', 'echo', 'approved']);
    assert.ok(host.catalog.resources().some((r) => r.server === 'ours'));
    assert.ok(
      host.catalog
        .prompts()
        .some((p) => p.alias === 'everything__simple-prompt' || p.server === 'everything'),
    );
    const health = host.health().find((h) => h.name === 'ours')!;
    assert.ok(health.pid! > 0);
    assert.equal(health.serverInfo?.name, 'mcpkit-everything');
  });

  test('calls reach the right server and land in the audit log', async () => {
    assert.equal(text(await host.callTool('ours__echo', { text: 'to ours' })), 'to ours');
    assert.equal(text(await host.callTool('web__echo', { text: 'to web' })), 'to web');
    assert.match(
      text(await host.callTool('everything__echo', { message: 'to everything' })),
      /to everything/,
    );
    assert.match(text(await host.callTool({ server: 'everything', tool: 'get-sum' }, { a: 2, b: 40 })), /42/);
    const e = trail.entries.find((x) => x.server === 'web' && x.target === 'echo')!;
    assert.equal(e.kind, 'tool');
    assert.equal(e.caller, 'app');
    assert.equal(e.decision, 'approved');
    assert.equal(e.outcome, 'ok');
    assert.equal(typeof e.durationMs, 'number');
    assert.equal(
      ui.asked.filter((q) => q.kind === 'approveTool').length,
      4,
      'the default policy (ask) asked for each call',
    );
    assert.equal(
      ui.asked.filter((q) => q.kind === 'confirmCommand').length,
      3,
      'one consent per local command',
    );
  });

  test('roots confine the filesystem server, and can be changed only within the host roots', async () => {
    const allowed = await waitFor(
      async () => {
        const t = text(await host.callTool('fs__list_allowed_directories', {}));
        return !t.includes(dirB) && t.includes(dirA) ? t : undefined;
      },
      5000,
      'the roots to reach the filesystem server',
    );
    assert.ok(allowed.includes(dirA));
    const denied = await host.callTool('fs__read_text_file', { path: join(dirB, 'secret.txt') });
    assert.equal(denied.isError, true);
    assert.match(text(denied), /denied|outside|not allowed/i);
    assert.equal(
      text(await host.callTool('fs__read_text_file', { path: join(dirA, 'notes.txt') })),
      'alpha notes',
    );
    await assert.rejects(
      host.setRoots('fs', ['/etc']),
      (e: unknown) => e instanceof HostError && /outside the host's roots/.test(e.message),
    );
    await host.setRoots('fs', [dirB]);
    await waitFor(
      async () => text(await host.callTool('fs__list_allowed_directories', {})).includes(dirB),
      5000,
      'the new root',
    );
    assert.equal(
      text(await host.callTool('fs__read_text_file', { path: join(dirB, 'secret.txt') })),
      'beta secret',
    );
  });

  test('sampling: a person approves and edits the request; the LLM answers; the server gets it', async () => {
    llm.requests.length = 0;
    llm.push(textAnswer('Edited answer'));
    ui.answers.reviewSampling = (r) => ({
      action: 'approve',
      params: {
        ...r.params,
        messages: [{ role: 'user', content: { type: 'text', text: 'Say hi politely' } }],
      },
    });
    const r = await host.callTool('ours__test_sampling', { prompt: 'Say hi' });
    assert.equal(text(r), 'LLM response: Edited answer');
    assert.deepEqual(llm.requests[0]!.params.messages, [
      { role: 'user', content: { type: 'text', text: 'Say hi politely' } },
    ]);
    const review = ui.asked.findLast((q) => q.kind === 'reviewSampling')!;
    assert.equal(review.kind === 'reviewSampling' && review.request.server, 'ours');
    const entry = trail.entries.findLast((x) => x.kind === 'sampling')!;
    assert.deepEqual(
      [entry.caller, entry.decision, entry.outcome, entry.reason],
      ['server:ours', 'approved', 'ok', 'approved with edits'],
    );
  });

  test('sampling refused by the person: the server is told, the LLM never called', async () => {
    const before = llm.requests.length;
    ui.answers.reviewSampling = { action: 'deny' };
    const r = await host.callTool('everything__trigger-sampling-request', {
      prompt: 'leak it',
      maxTokens: 5,
    });
    assert.match(text(r), /User rejected sampling request/);
    assert.equal(llm.requests.length, before);
    assert.equal(trail.entries.findLast((x) => x.kind === 'sampling')!.decision, 'denied');
  });

  test('sampling with tools: the model calls the server-offered tool, the answer goes back', async () => {
    ui.answers.reviewSampling = { action: 'approve' };
    llm.push(toolUse('get_weather', { city: 'Oslo' }, 'use_1'), (_m, p) =>
      textAnswer(`Done after ${p.messages.length} messages`),
    );
    const r = await host.callTool('web__weather_agent', { question: 'Weather in Oslo?' });
    assert.equal(text(r), 'The model says: Done after 3 messages');
    const last = llm.requests.at(-1)!.params;
    assert.equal(last.tools?.[0]?.name, 'get_weather');
    assert.deepEqual(last.messages[2], {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          toolUseId: 'use_1',
          content: [{ type: 'text', text: 'Sunny and 21°C in Oslo' }],
        },
      ],
    });
  });

  test('elicitation (form): an answer that fails the schema is asked again, then accepted', async () => {
    let round = 0;
    ui.answers.elicitForm = (): ElicitResult =>
      ++round === 1
        ? { action: 'accept', content: { username: 'bob' } }
        : { action: 'accept', content: { username: 'bob', email: 'bob@example.com' } };
    const r = await host.callTool('ours__test_elicitation', { message: 'Who are you?' });
    assert.match(text(r), /bob@example\.com/);
    const forms = ui.asked.filter((q) => q.kind === 'elicitForm');
    const second = forms.at(-1)!;
    assert.deepEqual(second.kind === 'elicitForm' && second.request.errors, ['email is required']);
  });

  test('elicitation (URL): shown in full, opened only after consent', async () => {
    ui.answers.confirmUrl = false;
    const declined = await host.callTool('everything__trigger-url-elicitation', {
      url: 'https://example.com/connect?id=1',
    });
    assert.match(text(declined), /decline/i);
    assert.deepEqual(opened, []);
    ui.answers.confirmUrl = true;
    await host.callTool('everything__trigger-url-elicitation', {
      url: 'https://xn--exmple-cua.com/connect?id=2',
    });
    assert.deepEqual(opened, ['https://xn--exmple-cua.com/connect?id=2']);
    const q = ui.asked.findLast((x) => x.kind === 'confirmUrl')!;
    assert.ok(q.kind === 'confirmUrl');
    assert.equal(q.request.url, 'https://xn--exmple-cua.com/connect?id=2');
    assert.equal(q.request.domain, 'xn--exmple-cua.com');
    assert.match(q.request.warnings[0]!, /punycode/);
  });

  test('list_changed keeps the catalog current', async () => {
    changes.length = 0;
    await host.callTool('ours__toggle_bonus_tool', {});
    await waitFor(() => host.catalog.resolve('ours__bonus_tool'), WAIT_MS, 'bonus_tool to appear');
    assert.ok(changes.some((c) => c.server === 'ours' && c.added.includes('ours__bonus_tool')));
    assert.equal(text(await host.callTool('ours__bonus_tool', {})), 'You found the bonus tool');
    await host.callTool('ours__toggle_bonus_tool', {});
    await waitFor(() => !host.catalog.resolve('ours__bonus_tool'), WAIT_MS, 'bonus_tool to go');
  });

  test('resources and prompts through the host', async () => {
    const uri = host.catalog.resources().find((r) => r.server === 'ours')!.uri;
    const read = await host.readResource('ours', uri);
    assert.ok(read.contents.length > 0);
    const prompt = host.catalog.prompts().find((p) => p.server === 'web' && p.name === 'test_simple_prompt')!;
    const got = await host.getPrompt(prompt.alias);
    assert.ok(got.messages.length > 0);
    assert.equal(textOf({ content: got.messages[0]!.content as never }).length > 0, true);
  });
});
