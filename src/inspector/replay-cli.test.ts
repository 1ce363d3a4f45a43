/**
 * `mcpkit inspect --record FILE` and `mcpkit replay FILE <target>` as a user runs them,
 * with real child processes: the demo server over stdio and over HTTP on 127.0.0.1, in
 * both eras. A session driven through the inspector's API is recorded, read back as a
 * timeline (progress and the nested question under their call), replayed against another
 * target (same answers: exit 0) and against another era (every envelope differs: exit 1,
 * each difference named), and bad recordings are refused with a clear message.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, startCli } from '../test-support/cli-process.js';
import { startDemoProcess } from '../test-support/demo-process.js';
import type { DemoProcess } from '../test-support/demo-process.js';
import { DEMO_STDIO } from '../test-support/inspector-harness.js';
import { WAIT_MS, waitFor } from '../test-support/waiting.js';
import { parseRecording } from './recording.js';
import { buildTimeline } from './timeline-model.js';
import type { ReplayReport } from './replay.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpkit-record-'));
const STDIO = ['--', process.execPath, DEMO_STDIO];

/** Records a session: a call with progress, an echo, and a question answered from the "page". */
async function record(era: 'legacy' | 'modern', target: string[], file: string): Promise<void> {
  const cli = startCli(['inspect', '--record', file, '--era', era, ...target]);
  try {
    const url = new URL(await cli.printed('stdout', /open (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/));
    const token = url.searchParams.get('token')!;
    const api = async (op: string, body?: unknown): Promise<Record<string, unknown>> => {
      const r = await fetch(new URL(`/api/${op}`, url), {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await r.json()) as Record<string, unknown>;
    };
    let server = '';
    await waitFor(
      async () => {
        const s = (await api('state')).servers as Array<{ name: string; state: string }>;
        server = s[0]?.name ?? '';
        return s[0]?.state === 'ready';
      },
      WAIT_MS,
      'the server to be ready',
    );
    const call = (callId: string, tool: string, args: Record<string, unknown>) =>
      api('call', { callId, server, tool, arguments: args });
    for (const [id, tool, args] of [
      ['c1', 'test_tool_with_progress', {}],
      ['c2', 'echo', { text: 'hi' }],
    ] as const) {
      const answer = await call(id, tool, args);
      assert.ok('result' in answer, JSON.stringify(answer));
    }
    const asking =
      era === 'modern'
        ? call('c3', 'test_input_required_result_elicitation', {})
        : call('c3', 'test_elicitation', { message: 'Who are you?' });
    let question: { id: string } | undefined;
    await waitFor(
      async () => (question = ((await api('state')).questions as Array<{ id: string }>)[0]),
      WAIT_MS,
      'the question',
    );
    const content = era === 'modern' ? { name: 'ann' } : { username: 'ann', email: 'ann@example.com' };
    await api('answer', { id: question!.id, answer: { action: 'accept', content } });
    assert.match(JSON.stringify(await asking), /ann/);
  } finally {
    await cli.stop();
  }
  assert.equal(await cli.exited, 0, cli.out.stderr);
}

describe('mcpkit inspect --record and mcpkit replay', () => {
  let http: DemoProcess;
  before(async () => {
    http = await startDemoProcess();
  });
  after(async () => {
    await http?.stop();
  });

  for (const era of ['legacy', 'modern'] as const)
    test(`stdio, ${era} era: recorded as a timeline, replayed the same against a new process`, async () => {
      const file = join(dir, `stdio-${era}.jsonl`);
      await record(era, STDIO, file);
      const rec = parseRecording(readFileSync(file, 'utf8'));
      assert.equal(rec.header.mcpkit, JSON.parse(readFileSync('package.json', 'utf8')).version);
      const server = [...rec.servers.values()][0]!;
      assert.equal(server.transport, 'stdio');
      assert.equal(server.era, era);
      assert.equal(server.serverInfo?.name, 'mcpkit-everything');
      assert.equal(server.protocolVersion, era === 'modern' ? '2026-07-28' : '2025-11-25');
      const calls = buildTimeline(rec.messages).filter((n) => n.method === 'tools/call');
      assert.equal(calls.length, 3);
      assert.deepEqual(
        calls[0]!.children.map((c) => c.kind),
        ['progress', 'progress', 'progress'],
      );
      assert.equal(calls[0]!.final, 'ok');
      // The question: a server request under the call (legacy), an input round (modern).
      assert.deepEqual(
        calls[2]!.children.map((c) => [c.kind, c.method]),
        [era === 'legacy' ? ['server-request', 'elicitation/create'] : ['input-round', 'tools/call']],
      );

      const replayed = await runCli(['replay', file, '--json', ...STDIO]);
      assert.equal(replayed.code, 0, replayed.stderr);
      const report = JSON.parse(replayed.stdout) as ReplayReport;
      assert.equal(report.changed + report.outcome, 0);
      assert.deepEqual(
        report.steps.filter((s) => s.method === 'tools/call').map((s) => s.target),
        [
          'test_tool_with_progress',
          'echo',
          era === 'legacy' ? 'test_elicitation' : 'test_input_required_result_elicitation',
        ],
      );
      // The recorded answer was given again: the tool saw "ann".
      assert.match(JSON.stringify(report.steps.at(-1)!.now), /ann/);
      for (const s of report.steps) assert.ok(s.ratio === undefined || s.ratio > 0);
    });

  test('HTTP on 127.0.0.1: a legacy recording replayed in the modern era names each difference', async () => {
    const file = join(dir, 'http-legacy.jsonl');
    await record('legacy', ['--url', http.url], file);
    const rec = parseRecording(readFileSync(file, 'utf8'));
    assert.equal([...rec.servers.values()][0]!.transport, 'http');

    // Another target (stdio), the recorded era: the same answers.
    const same = await runCli(['replay', file, ...STDIO]);
    assert.equal(same.code, 0, same.stdout + same.stderr);
    assert.match(same.stdout, /legacy era/);
    assert.match(same.stdout, /request\(s\): \d+ same, 0 changed, 0 with another outcome/);

    const other = await runCli(['replay', file, '--era', 'modern', '--url', http.url]);
    assert.equal(other.code, 1, other.stdout + other.stderr);
    assert.match(other.stdout, /changed +tools\/call echo .*ms \(×[\d.]+\)\n +added resultType: "complete"/);
  });

  test('bad recordings get a clear error and exit code 2', async () => {
    const cases: Array<[string, RegExp]> = [
      ['', /empty/],
      ['{"exportedAt":"x","messages":[]}\n', /not an mcpkit recording.*Export JSON/],
      [
        '{"type":"mcpkit-recording","version":2,"mcpkit":"9","createdAt":"x","servers":[]}\n',
        /newer than this mcpkit reads/,
      ],
      [
        '{"type":"mcpkit-recording","version":1,"mcpkit":"0","createdAt":"x","servers":[]}\nnope\n{}\n',
        /line 2: not JSON/,
      ],
    ];
    for (const [i, [text, pattern]] of cases.entries()) {
      const file = join(dir, `bad-${i}.jsonl`);
      writeFileSync(file, text);
      const r = await runCli(['replay', file, ...STDIO]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, pattern);
    }
    const missing = await runCli(['replay', join(dir, 'nope.jsonl'), ...STDIO]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /Cannot read .*nope\.jsonl/);
    const unwritable = await runCli(['inspect', '--record', join(dir, 'no', 'such', 'dir.jsonl'), ...STDIO]);
    assert.equal(unwritable.code, 2);
    assert.match(unwritable.stderr, /Cannot write --record/);
  });
});
