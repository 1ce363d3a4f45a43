/**
 * Bad input and permissions: consent before a local command first runs, deny and ask,
 * two tools with one name, a poisoned description, a definition that changes after
 * approval, rate limits, the audit log. Nothing runs without permission: the rogue
 * server logs every call it receives, and the tests check it received none it should not.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonLinesAudit } from './policy/audit.js';
import { shellQuote } from './policy/command-consent.js';
import type { AuditEntry } from './policy/audit.js';
import { HostError } from './errors.js';
import { JsonFileApprovalStore, fileAudit } from './node-files.js';
import { NODE, ROGUE, makeHost, nodeServer, tempDir } from '../test-support/host-harness.js';
import { ScriptedUi } from './ui/ui.js';
import { waitFor } from '../test-support/waiting.js';

const dir = tempDir();
const received = (log: string): string[] =>
  existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) : [];
const isHost = (code: string, re?: RegExp) => (e: unknown) => {
  assert.ok(e instanceof HostError, String(e));
  assert.equal(e.code, code, e.message);
  if (re) assert.match(e.message, re);
  return true;
};
const rogue = (log: string, modes: string[] = [], extra: Record<string, unknown> = {}) =>
  nodeServer(ROGUE, modes, { era: 'legacy', env: { ROGUE_LOG: log }, ...extra });

describe('host: consent before a local command runs', () => {
  test('refused: the command never runs, and the exact command line was shown', async () => {
    const marker = join(dir, 'ran.txt');
    const script = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`;
    const { host, ui, trail } = makeHost(
      { sneaky: { command: NODE, args: ['-e', script] } },
      { answers: { confirmCommand: false } },
    );
    const health = await host.start();
    await host.close();
    assert.equal(health[0]!.state, 'refused');
    assert.equal(existsSync(marker), false);
    const q = ui.asked[0]!;
    assert.ok(q.kind === 'confirmCommand');
    assert.equal(q.request.commandLine, `${NODE} -e ${shellQuote(script)}`);
    assert.equal(shellQuote("it's"), `'it'\\''s'`);
    assert.deepEqual(
      trail.entries.map((e) => [e.kind, e.decision]),
      [['start', 'denied']],
    );
  });

  test('given once, remembered by the store; a changed command asks again', async () => {
    const store = new JsonFileApprovalStore(join(dir, 'approvals.json'));
    const log = join(dir, 'consent.log');
    const first = makeHost({ r: rogue(log) }, { store });
    await first.host.start();
    await first.host.close();
    const second = makeHost(
      { r: rogue(log) },
      { store: new JsonFileApprovalStore(join(dir, 'approvals.json')) },
    );
    await second.host.start();
    await second.host.close();
    assert.equal(second.ui.asked.filter((q) => q.kind === 'confirmCommand').length, 0);
    const third = makeHost({ r: rogue(log, ['dupes']) }, { store });
    await third.host.start();
    await third.host.close();
    assert.equal(third.ui.asked.filter((q) => q.kind === 'confirmCommand').length, 1);
  });
});

describe('host: policy and approvals', () => {
  test('deny: refused with a clear message; the server never sees the call', async () => {
    const log = join(dir, 'deny.log');
    const { host, trail } = makeHost({
      r: rogue(log, [], { policy: { default: 'allow', tools: { greet: 'deny' } } }),
    });
    try {
      await host.start();
      await assert.rejects(
        host.callTool('r__greet', {}),
        isHost('Denied', /^The policy denies "greet" on "r" \(tool-rule\)$/),
      );
      assert.deepEqual(received(log), []);
      const e = trail.entries.at(-1)!;
      assert.deepEqual(
        [e.kind, e.server, e.target, e.decision, e.outcome],
        ['tool', 'r', 'greet', 'denied', 'not-run'],
      );
    } finally {
      await host.close();
    }
  });

  test('ask: a refusal stops the call; "always" is remembered for the session', async () => {
    const log = join(dir, 'ask.log');
    const ui = new ScriptedUi({ confirmCommand: true, approveTool: 'deny' });
    const { host } = makeHost({ r: rogue(log) }, { ui });
    try {
      await host.start();
      await assert.rejects(host.callTool('r__greet', {}, { caller: 'agent' }), isHost('NotApproved'));
      assert.deepEqual(received(log), []);
      const q = ui.asked.at(-1)!;
      assert.ok(q.kind === 'approveTool');
      assert.deepEqual(
        [q.request.caller, q.request.tool, q.request.alias, q.request.reason],
        ['agent', 'greet', 'r__greet', 'policy'],
      );
      ui.answers.approveTool = 'always';
      await host.callTool('r__greet', {});
      const asked = ui.asked.length;
      await host.callTool('r__greet', {});
      assert.equal(ui.asked.length, asked, 'not asked again');
      assert.deepEqual(received(log), ['greet', 'greet']);
    } finally {
      await host.close();
    }
  });

  test('rate limits per server', async () => {
    const { host, trail } = makeHost({
      r: rogue(join(dir, 'rate.log'), [], {
        policy: { default: 'allow' },
        rateLimit: { calls: 2, perMs: 60_000 },
      }),
    });
    try {
      await host.start();
      await host.callTool('r__greet', {});
      await host.callTool('r__greet', {});
      await assert.rejects(
        host.callTool('r__greet', {}),
        isHost('RateLimited', /^Rate limit of server "r" reached; retry in \d+ s$/),
      );
      assert.equal(trail.entries.at(-1)!.decision, 'rate-limited');
    } finally {
      await host.close();
    }
  });

  test('an unknown tool or server gets a clear message', async () => {
    const { host } = makeHost({ r: rogue(join(dir, 'unknown.log'), [], { policy: { default: 'allow' } }) });
    try {
      await host.start();
      await assert.rejects(
        host.callTool('greet', {}),
        isHost('UnknownTool', /^No tool is called "greet" \(did you mean r__greet\?\)$/),
      );
      await assert.rejects(host.callTool({ server: 'nope', tool: 'greet' }), isHost('UnknownServer'));
      await assert.rejects(
        host.callTool({ server: 'r', tool: 'nope' }),
        isHost('UnknownTool', /^Server "r" has no tool named "nope"$/),
      );
    } finally {
      await host.close();
    }
  });
});

describe('host: hostile tool lists', () => {
  test('two tools with one name: neither is offered nor called', async () => {
    const log = join(dir, 'dupes.log');
    const { host, ui } = makeHost({ r: rogue(log, ['dupes'], { policy: { default: 'allow' } }) });
    const notices: string[] = [];
    host.on('notice', (n) => notices.push(n.message));
    try {
      await host.start();
      assert.equal(host.catalog.find('r', 'greet')!.status, 'conflict');
      assert.ok(!host.llmTools().some((t) => t.name === 'r__greet'));
      assert.ok(
        notices.includes(
          'Server "r" lists 2 tools named "greet": none of them is offered or callable until the server lists the name once',
        ),
      );
      await assert.rejects(
        host.callTool('r__greet', {}),
        isHost('ToolConflict', /will not guess which one runs/),
      );
      assert.throws(() => host.approveTool('r__greet'), isHost('ToolConflict'));
      assert.deepEqual(received(log), []);
      assert.equal(ui.asked.filter((q) => q.kind === 'approveTool').length, 0);
    } finally {
      await host.close();
    }
  });

  test('a poisoned description is held back until a person approves it, warnings shown', async () => {
    const log = join(dir, 'malicious.log');
    const { host, ui } = makeHost(
      { r: rogue(log, ['malicious'], { policy: { default: 'allow' } }) },
      { answers: { approveTool: 'deny' } },
    );
    const notices: string[] = [];
    host.on('notice', (n) => notices.push(n.message));
    try {
      await host.start();
      const entry = host.catalog.find('r', 'add')!;
      assert.equal(entry.status, 'flagged');
      assert.ok(!host.llmTools().some((t) => t.name === 'r__add'));
      assert.ok(
        notices.some((n) =>
          n.startsWith(
            'Tool "add" of "r" looks unsafe (description contains invisible or direction-changing characters;',
          ),
        ),
      );
      await assert.rejects(host.callTool('r__add', {}), isHost('NotApproved'));
      const q = ui.asked.at(-1)!;
      assert.ok(q.kind === 'approveTool' && q.request.reason === 'flagged' && q.request.warnings.length >= 3);
      assert.deepEqual(received(log), []);
      host.approveTool('r__add');
      assert.ok(host.llmTools().some((t) => t.name === 'r__add'));
    } finally {
      await host.close();
    }
  });

  test('a tool that changes after approval needs approval again (the call is held, the diff shown)', async () => {
    const log = join(dir, 'mutate.log');
    const { host, ui } = makeHost(
      { r: rogue(log, [], { policy: { default: 'allow' } }) },
      { answers: { approveTool: 'deny' } },
    );
    try {
      await host.start();
      assert.equal(host.catalog.find('r', 'greet')!.status, 'approved');
      await host.callTool('r__mutate', {});
      await waitFor(
        () => host.catalog.find('r', 'greet')?.status === 'changed',
        3000,
        'the change to be seen',
      );
      assert.ok(!host.llmTools().some((t) => t.name === 'r__greet'));
      await assert.rejects(host.callTool('r__greet', {}), isHost('NotApproved'));
      const q = ui.asked.at(-1)!;
      assert.ok(q.kind === 'approveTool');
      assert.equal(q.request.reason, 'changed');
      assert.equal(q.request.previous?.description, 'Returns a friendly greeting');
      assert.match(q.request.definition.description!, /ignore all previous instructions/);
      assert.deepEqual(received(log), ['mutate']);
      ui.answers.approveTool = 'always';
      assert.equal((await host.callTool('r__greet', {})).isError, undefined);
      assert.equal(host.catalog.find('r', 'greet')!.status, 'approved');
    } finally {
      await host.close();
    }
  });
});

describe('host: the audit log', () => {
  test('JSON lines: who, what, decision, duration, outcome, for calls made and refused', async () => {
    const path = join(dir, 'audit.jsonl');
    const lines: string[] = [];
    const { host } = makeHost(
      { r: rogue(join(dir, 'audit.log'), [], { policy: { default: 'allow', tools: { hang: 'deny' } } }) },
      { audit: [fileAudit(path), jsonLinesAudit((l) => lines.push(l))] },
    );
    try {
      await host.start();
      await host.callTool('r__greet', { name: 'x' }, { caller: 'agent' });
      await assert.rejects(host.callTool('r__hang', {}));
    } finally {
      await host.close();
    }
    const fromFile = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AuditEntry);
    assert.deepEqual(
      lines.map((l) => JSON.parse(l) as AuditEntry),
      fromFile,
    );
    assert.deepEqual(
      fromFile.map((e) => [e.kind, e.caller, e.server, e.target ?? '', e.decision, e.outcome]),
      [
        ['start', 'host', 'r', `${NODE} ${ROGUE}`, 'approved', 'not-run'],
        ['tool', 'agent', 'r', 'greet', 'allowed', 'ok'],
        ['tool', 'app', 'r', 'hang', 'denied', 'not-run'],
      ],
    );
    const call = fromFile[1]!;
    assert.equal(call.argumentBytes, 12);
    assert.ok(call.durationMs! >= 0 && !Number.isNaN(Date.parse(call.time)));
    writeFileSync(join(dir, 'done'), '');
  });
});
