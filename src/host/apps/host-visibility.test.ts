/**
 * mcpkit's Host keeps app-only tools (`_meta.ui.visibility: ["app"]`) out of the model's
 * tool list while they stay in the catalog, callable for the app's view; checked with the
 * demo server (its counter app) as a real stdio child.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Host } from '../host.js';
import { OURS, makeHost, nodeServer } from '../../test-support/host-harness.js';

describe('Host and MCP Apps tool visibility', () => {
  let host: Host;
  before(async () => {
    ({ host } = makeHost({ ours: nodeServer(OURS, [], { env: { MCPKIT_DEMO_STEP_MS: '5' } }) }));
    const health = await host.start();
    assert.equal(health[0]?.state, 'ready', health[0]?.lastError);
  });
  after(async () => {
    await host.close();
  });

  test('the model sees show_counter but not the app-only counter_add, which stays callable', async () => {
    const offered = host.llmTools().map((t) => t.name);
    assert.ok(offered.includes('ours__show_counter'));
    assert.ok(!offered.includes('ours__counter_add'));
    const r = await host.callTool({ server: 'ours', tool: 'counter_add' }, { by: 3 });
    assert.match(JSON.stringify(r.content), /The counter is at 3\./);
  });
});
