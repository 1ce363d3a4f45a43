/**
 * Tasks through the host and the gateway: a task tool called through the host follows its
 * task (status to the caller, the task id in the audit), the policy applies to it like to
 * any tool, and the gateway serves task tools as task tools to its own clients in both
 * generations, relaying status messages and cancellation.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '../client/index.js';
import type { TaskInfo } from '../client/index.js';
import { createEverythingServer } from '../demo/everything-server.js';
import { StreamableHttpClientTransport } from '../transports/http-client/index.js';
import { serve } from '../serve/index.js';
import type { RunningServer } from '../serve/index.js';
import { Agent } from './llm/agent.js';
import type { AgentStep } from './llm/agent.js';
import { Gateway } from './serve/gateway.js';
import { ScriptedProvider, textAnswer } from './llm/llm.js';
import type { Host } from './host.js';
import { HostError } from './errors.js';
import type { AuditTrail } from './policy/audit.js';
import { makeHost } from '../test-support/host-harness.js';
import { WAIT_MS, waitFor } from '../test-support/waiting.js';

const text = (r: { content: Array<{ type: string; text?: string }> }): string =>
  r.content.map((c) => c.text ?? `[${c.type}]`).join('');

describe('tasks through the host and the gateway', () => {
  let web: RunningServer;
  const upstream = createEverythingServer({ tasks: { pollIntervalMs: 100 } });
  let host: Host;
  let trail: AuditTrail;

  before(async () => {
    web = await serve(upstream, { port: 0 });
    ({ host, trail } = makeHost({
      web: { url: web.url, era: 'legacy', policy: { default: 'allow', tools: { failing_job: 'deny' } } },
    }));
    await host.start();
  });

  after(async () => {
    await host.close();
    await web.close();
  });

  test('the host follows a task tool, reports its states and audits the task id', async () => {
    const seen: TaskInfo[] = [];
    const r = await host.callTool(
      { server: 'web', tool: 'research_report' },
      { topic: 'reefs' },
      { onTaskStatus: (t) => seen.push(t) },
    );
    assert.equal(text(r), 'Report on reefs: sources agree; nothing alarming found.');
    assert.ok(seen.some((t) => t.status === 'working' && /on reefs/.test(t.statusMessage ?? '')));
    const entry = trail.entries.filter((e) => e.target === 'research_report').at(-1)!;
    assert.equal(entry.outcome, 'ok');
    assert.equal(entry.taskId, seen[0]!.taskId);
  });

  test('the agent shows a task tool call as it runs', async () => {
    const llm = new ScriptedProvider([
      {
        role: 'assistant' as const,
        content: [
          { type: 'tool_use' as const, id: 'u1', name: 'web__research_report', input: { topic: 'eels' } },
        ],
        model: '',
        stopReason: 'toolUse',
      },
      () => textAnswer('done'),
    ]);
    const steps: AgentStep[] = [];
    const agent = new Agent(host, { provider: llm, model: 'scripted', onStep: (st) => steps.push(st) });
    assert.equal((await agent.run('Report on eels')).text, 'done');
    const tasks = steps.filter((st) => st.type === 'task');
    assert.ok(tasks.length > 0);
    assert.ok(tasks.every((st) => st.type === 'task' && st.name === 'web__research_report'));
    const tool = steps.find((st) => st.type === 'tool');
    assert.ok(tool && tool.type === 'tool' && tool.ok);
  });

  test('the policy applies to task tools like to any other', async () => {
    await assert.rejects(
      host.callTool({ server: 'web', tool: 'failing_job' }, {}),
      (e: unknown) => e instanceof HostError && e.code === 'Denied',
    );
    assert.equal(trail.entries.at(-1)!.decision, 'denied');
  });

  test('the gateway passes task augmentation of optional tools upstream, and only when asked', async () => {
    const gateway = new Gateway(host);
    const running = await gateway.serveHttp();
    const client = new Client({ name: 'gateway-optional', version: '1.0.0' }, { era: 'legacy' });
    const lastAudit = () => trail.entries.filter((e) => e.target === 'slow_compute').at(-1)!;
    try {
      await client.connect(new StreamableHttpClientTransport({ url: running.url }));
      // A plain call stays plain on both sides.
      const plain = await client.callTool({
        name: 'web__slow_compute',
        arguments: { seconds: 0, label: 'p' },
      });
      assert.equal(text(plain), 'Computed p after 0 s');
      assert.equal(lastAudit().taskId, undefined, 'no upstream task for a plain call');
      // A task downstream is a task upstream: its status and result come back through the gateway.
      const before = upstream.tasks!.runningCount;
      const task = await client.tasks.start({
        name: 'web__slow_compute',
        arguments: { seconds: 60, label: 'relayed' },
      });
      await waitFor(() => upstream.tasks!.runningCount > before, 5000, 'the upstream task to start');
      await waitFor(
        async () => (await task.status()).statusMessage === 'Computing relayed',
        5000,
        'the upstream status message at the gateway',
      );
      await task.cancel();
      await waitFor(() => upstream.tasks!.runningCount === before, 5000, 'the upstream task to stop');
      const quick = await client.tasks.start({
        name: 'web__slow_compute',
        arguments: { seconds: 0, label: 'q' },
      });
      assert.equal(text(await quick.result()), 'Computed q after 0 s');
      const audited = lastAudit();
      assert.equal(audited.outcome, 'ok');
      assert.equal(typeof audited.taskId, 'string', 'the upstream call ran as a task');
    } finally {
      await client.close();
      await gateway.close();
    }
  });

  for (const era of ['legacy', 'modern'] as const) {
    test(`the gateway serves task tools as tasks (${era} client)`, async () => {
      const gateway = new Gateway(host);
      const running = await gateway.serveHttp();
      const client = new Client({ name: 'gateway-tasks', version: '1.0.0' }, { era });
      try {
        await client.connect(new StreamableHttpClientTransport({ url: running.url }));
        const listed: Record<string, unknown> = {};
        for await (const t of client.tools()) listed[t.name] = t.execution?.taskSupport;
        // 2026-07-28 lists no `execution` (the tasks extension decides per call).
        assert.equal(listed.web__research_report, era === 'legacy' ? 'required' : undefined);
        const statuses: TaskInfo[] = [];
        const r = await client.callTool(
          { name: 'web__research_report', arguments: { topic: 'kelp' } },
          { onTaskStatus: (t) => statuses.push(t) },
        );
        assert.equal(text(r), 'Report on kelp: sources agree; nothing alarming found.');
        assert.ok(statuses.length > 0 && statuses[0]!.taskId.length > 0);
        assert.ok(
          statuses.some((t) => /on kelp/.test(t.statusMessage ?? '')),
          JSON.stringify(statuses),
        );
        // Cancelling the gateway's task cancels the upstream one.
        const before = upstream.tasks!.runningCount;
        const task = await client.tasks.start({ name: 'web__research_report', arguments: { topic: 'stop' } });
        await waitFor(() => upstream.tasks!.runningCount > before, WAIT_MS, 'the upstream task to start');
        await task.cancel();
        await waitFor(() => upstream.tasks!.runningCount === before, WAIT_MS, 'the upstream task to stop');
        assert.equal((await task.status()).status, 'cancelled');
      } finally {
        await client.close();
        await gateway.close();
      }
    });
  }
});
