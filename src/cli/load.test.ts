// `mcpkit load` as a user runs it: real child processes, the demo server over stdio and
// over Streamable HTTP in both eras, and a fixture tool that fails with a JSON-RPC error.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { LoadReport } from './commands/load.js';
import { runCli, startCli } from '../test-support/cli-process.js';
import { startDemoProcess } from '../test-support/demo-process.js';
import type { DemoProcess } from '../test-support/demo-process.js';

const demoStdio = [
  '--',
  process.execPath,
  fileURLToPath(new URL('../demo/everything-stdio.js', import.meta.url)),
];
const fixture = [
  '--',
  process.execPath,
  fileURLToPath(new URL('../test-support/lint-fixture-server.js', import.meta.url)),
];

function sane(r: LoadReport, calls: number, clients: number): void {
  assert.equal(r.calls, calls);
  assert.equal(r.clients, clients);
  assert.equal(r.samples, calls);
  assert.equal(r.ok + r.toolErrors + Object.values(r.errors).reduce((a, b) => a + b, 0), calls);
  const l = r.latencyMs;
  assert.ok(l.p50 > 0 && l.p50 <= l.p95 && l.p95 <= l.p99 && l.p99 <= l.max, JSON.stringify(l));
  assert.ok(l.mean > 0 && l.mean <= l.max);
  assert.ok(r.durationMs > 0 && r.callsPerSecond > 0);
  assert.equal(r.stoppedBy, 'calls');
}

describe('mcpkit load', () => {
  test('stdio: --calls is counted exactly across clients (warm-up calls apart); --json has every documented field', async () => {
    const r = await runCli([
      'load',
      '--tool',
      'test_simple_text',
      '--calls',
      '60',
      '--clients',
      '3',
      '--warmup',
      '2',
      '--json',
      ...demoStdio,
    ]);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout) as LoadReport;
    assert.deepEqual(Object.keys(report).sort(), [
      'calls',
      'callsPerSecond',
      'clients',
      'durationMs',
      'errors',
      'latencyMs',
      'ok',
      'samples',
      'stoppedBy',
      'tool',
      'toolErrors',
    ]);
    sane(report, 60, 3);
    assert.equal(report.ok, 60);
    assert.deepEqual(report.errors, {});
  });

  test('isError results are counted apart, and the run exits 1', async () => {
    const r = await runCli(['load', '--tool', 'test_error_handling', '--calls', '7', '--json', ...demoStdio]);
    assert.equal(r.code, 1, r.stderr);
    const report = JSON.parse(r.stdout) as LoadReport;
    sane(report, 7, 1);
    assert.equal(report.toolErrors, 7);
    assert.deepEqual(report.errors, {});
  });

  test('JSON-RPC errors are counted by code', async () => {
    const r = await runCli(['load', '--tool', 'flaky', '--calls', '10', '--json', ...fixture]);
    assert.equal(r.code, 1, r.stderr);
    const report = JSON.parse(r.stdout) as LoadReport;
    sane(report, 10, 1);
    // One client, one server process: its every other call fails.
    assert.deepEqual(report.errors, { '-32001': 5 });
    assert.equal(report.ok, 5);
  });

  test('the text report names the numbers', async () => {
    const r = await runCli(['load', '--tool', 'test_simple_text', '--calls', '5', ...demoStdio]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^5 calls to test_simple_text from 1 client in [\d.]+ s \(stopped by calls\)/);
    assert.match(r.stdout, /calls\/s/);
    assert.match(r.stdout, /latency ms: p50 [\d.]+ {2}p95 [\d.]+ {2}p99 [\d.]+ {2}max [\d.]+/);
    assert.match(r.stdout, /ok 5 {2}isError 0/);
  });

  test('bad input: unknown tool, args not JSON, --clients 0, both --calls and --duration exit 2', async () => {
    const cases: [string[], RegExp][] = [
      [['--tool', 'nope', '--calls', '1'], /no tool named "nope"/],
      [['--tool', 'echo', '--args', '{bad', '--calls', '1'], /--args is not valid JSON/],
      [['--tool', 'echo', '--clients', '0'], /--clients must be a positive integer/],
      [['--tool', 'echo', '--calls', '2.5'], /--calls must be a positive integer/],
      [['--tool', 'echo', '--calls', '1', '--duration', '2'], /Choose one of --calls and --duration/],
      [['--calls', '1'], /Which tool\?/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(['load', ...args, ...demoStdio]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
  });

  test('SIGINT stops a --duration run early and still prints the report', async () => {
    const p = startCli([
      'load',
      '--tool',
      'test_simple_text',
      '--duration',
      '120',
      '--clients',
      '2',
      '--json',
      ...demoStdio,
    ]);
    await p.printed('stderr', /calling test_simple_text/);
    p.child.kill('SIGINT');
    const code = await p.exited;
    assert.equal(code, 0, p.out.stderr);
    const report = JSON.parse(p.out.stdout) as LoadReport;
    assert.equal(report.stoppedBy, 'interrupt');
    assert.ok(report.durationMs < 120_000);
    assert.equal(report.ok, report.calls);
  });

  describe('over Streamable HTTP', () => {
    let demo: DemoProcess;
    before(async () => {
      demo = await startDemoProcess();
    });
    after(() => demo.stop());

    for (const era of ['legacy', 'modern'] as const) {
      test(`--era ${era}: exact counts and sane latencies`, async () => {
        const r = await runCli([
          'load',
          '--tool',
          'test_simple_text',
          '--calls',
          '40',
          '--clients',
          '4',
          '--json',
          '--era',
          era,
          '--url',
          demo.url,
        ]);
        assert.equal(r.code, 0, r.stderr);
        const report = JSON.parse(r.stdout) as LoadReport;
        sane(report, 40, 4);
        assert.equal(report.ok, 40);
      });
    }

    test('--duration stops by time', async () => {
      const r = await runCli([
        'load',
        '--tool',
        'test_simple_text',
        '--duration',
        '0.5',
        '--json',
        '--url',
        demo.url,
      ]);
      assert.equal(r.code, 0, r.stderr);
      const report = JSON.parse(r.stdout) as LoadReport;
      assert.equal(report.stoppedBy, 'duration');
      assert.ok(report.calls > 0 && report.ok === report.calls);
      assert.ok(report.durationMs >= 450, String(report.durationMs));
    });
  });
});
