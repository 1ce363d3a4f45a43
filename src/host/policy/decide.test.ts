/**
 * The host's one policy decision, on its own: deny rules win, then the rate limit, then a
 * person is asked for `ask` rules and for new, changed or flagged tools; "always" pins and
 * remembers; a command line is asked about once.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogTool } from '../catalog/catalog.js';
import { parseHostConfig } from '../config/config-parse.js';
import type { ServerConfig } from '../config/config-types.js';
import { ScriptedUi } from '../ui/ui.js';
import type { ScriptedAnswers } from '../ui/ui.js';
import { decide } from './decide.js';
import type { DecisionDeps } from './decide.js';
import { MemoryApprovalStore } from './pins.js';
import { Policy, RateLimiter } from './policy.js';

const config = parseHostConfig({
  mcpServers: {
    files: {
      command: 'node',
      args: ['files.js'],
      policy: { default: 'allow', tools: { rm: 'deny', write: 'ask' } },
      rateLimit: { calls: 2, perMs: 60_000 },
    },
  },
});

function deps(answers: ScriptedAnswers = {}): DecisionDeps & { ui_: ScriptedUi; pinned: string[] } {
  const ui_ = new ScriptedUi(answers);
  const limiter = new RateLimiter(config.servers.files!.rateLimit!);
  const pinned: string[] = [];
  return {
    policy: Policy.fromConfig(config),
    limiter: (s) => (s === 'files' ? limiter : undefined),
    ui: async () => ui_,
    store: new MemoryApprovalStore(),
    pin: (t) => pinned.push(t.name),
    ui_,
    pinned,
  };
}

const tool = (name: string, status: CatalogTool['status'] = 'approved'): CatalogTool => ({
  alias: name,
  server: 'files',
  name,
  definition: { name, inputSchema: { type: 'object' } },
  hash: 'h',
  status,
  warnings: [],
  previous: undefined,
});

describe('decide', () => {
  test('a deny rule refuses without asking; an allowed tool runs without asking', async () => {
    const d = deps({ approveTool: 'always' });
    const denied = await decide(d, { kind: 'tool', tool: tool('rm'), caller: 'app' });
    assert.equal(denied.allowed, false);
    assert.equal(!denied.allowed && denied.error.code, 'Denied');
    assert.deepEqual(await decide(d, { kind: 'tool', tool: tool('read'), caller: 'app' }), {
      allowed: true,
      decision: 'allowed',
    });
    assert.equal(d.ui_.asked.length, 0);
  });

  test('an ask rule and a new tool ask a person; "always" pins and remembers', async () => {
    const d = deps({ approveTool: 'always' });
    const first = await decide(d, { kind: 'tool', tool: tool('write'), caller: 'app' });
    assert.deepEqual(first, { allowed: true, decision: 'approved-always' });
    assert.deepEqual(d.pinned, ['write']);
    assert.equal(d.policy.decide('files', 'write').source, 'remembered');
    const fresh = deps({ approveTool: 'deny' });
    const refused = await decide(fresh, { kind: 'tool', tool: tool('read', 'pending'), caller: 'app' });
    assert.equal(!refused.allowed && refused.error.code, 'NotApproved');
    assert.equal(fresh.ui_.asked.length, 1);
  });

  test('the rate limit refuses once the window is full', async () => {
    const d = deps();
    for (let i = 0; i < 2; i++)
      assert.equal((await decide(d, { kind: 'tool', tool: tool('read'), caller: 'app' })).allowed, true);
    const limited = await decide(d, {
      kind: 'resource',
      server: 'files',
      target: 'file:///a',
      caller: 'app',
    });
    assert.equal(limited.decision, 'rate-limited');
  });

  test('a command line is asked about once, then its consent is kept', async () => {
    const d = deps({ confirmCommand: true });
    const server = config.servers.files as ServerConfig;
    const asked = await decide(d, { kind: 'command', server });
    assert.equal(asked.decision, 'approved');
    assert.match(asked.command!.commandLine, /files\.js/);
    assert.deepEqual(await decide(d, { kind: 'command', server }), { allowed: true, decision: 'allowed' });
    assert.equal(d.ui_.asked.length, 1);
    const no = await decide(deps({ confirmCommand: false }), { kind: 'command', server });
    assert.equal(!no.allowed && no.error.code, 'ConsentRefused');
  });
});
