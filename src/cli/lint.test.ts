// `mcpkit lint` as a user runs it, against a fixture server with deliberately non-portable
// schemas and against the demo server (whose findings are listed here, so a change shows).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { LintFinding } from '../host/lint/finding.js';
import { runCli } from '../test-support/cli-process.js';
import { startDemoProcess } from '../test-support/demo-process.js';
import type { DemoProcess } from '../test-support/demo-process.js';

const demoScript = fileURLToPath(new URL('../demo/everything-stdio.js', import.meta.url));
const fixture = [
  '--',
  process.execPath,
  fileURLToPath(new URL('../test-support/lint-fixture-server.js', import.meta.url)),
];
const LONG = `tool:tool_${'x'.repeat(65)}`;

interface Output {
  findings: LintFinding[];
  summary: { tools: number; pages: Record<string, number>; errors: number; warnings: number; infos: number };
}

async function lint(
  args: string[],
  cwd?: string,
): Promise<{ code: number | null; out: Output; stderr: string }> {
  const r = await runCli(['lint', '--json', ...args], cwd ? { cwd } : {});
  return { code: r.code, out: JSON.parse(r.stdout || '{}') as Output, stderr: r.stderr };
}

const keys = (fs: LintFinding[]): string[] => fs.map((f) => `${f.severity} ${f.rule} ${f.subject}`).sort();

describe('mcpkit lint', () => {
  test("the fixture server: every non-portable schema gets its finding, the clean tool none but Gemini's", async () => {
    const { code, out } = await lint(fixture);
    assert.equal(code, 1);
    assert.deepEqual(
      keys(out.findings.filter((f) => f.severity === 'error')),
      [
        `error claude/name ${LONG}`,
        'error claude/name tool:weather.get',
        `error gemini/name ${LONG}`,
        `error openai/name ${LONG}`,
        'error openai/external-ref tool:weather.get',
        'error openai/name tool:weather.get',
      ].sort(),
    );
    const weather = keys(
      out.findings.filter((f) => f.subject === 'tool:weather.get' && f.severity !== 'error'),
    );
    assert.deepEqual(weather, [
      'info readiness/tool-title tool:weather.get',
      'warning gemini/format tool:weather.get',
      'warning gemini/unsupported-keyword tool:weather.get',
      'warning gemini/unsupported-keyword tool:weather.get',
      'warning openai/strict-additional-properties tool:weather.get',
      'warning openai/strict-oneof tool:weather.get',
      'warning openai/strict-required tool:weather.get',
      'warning readiness/property-description tool:weather.get',
      'warning readiness/tool-annotations tool:weather.get',
      'warning readiness/tool-description tool:weather.get',
    ]);
    // Gemini's parameters take no additionalProperties, which OpenAI's strict mode needs.
    assert.deepEqual(keys(out.findings.filter((f) => f.subject === 'tool:clean_tool')), [
      'warning gemini/unsupported-keyword tool:clean_tool',
    ]);
  });

  test('--probe calls read-only tools without arguments; structuredContent without outputSchema is flagged', async () => {
    const plain = await lint(fixture);
    assert.ok(!plain.out.findings.some((f) => f.rule === 'readiness/output-schema'));
    const { out } = await lint(['--probe', ...fixture]);
    assert.deepEqual(
      keys(
        out.findings.filter(
          (f) => f.rule.startsWith('readiness/output') || f.rule.startsWith('readiness/probe'),
        ),
      ),
      ['warning readiness/output-schema tool:structured_reader'],
    );
  });

  test('--host narrows the rules; a bad --host exits 2', async () => {
    const { code, out } = await lint(['--host', 'gemini', ...fixture]);
    assert.equal(code, 1);
    const hostRules = new Set(out.findings.map((f) => f.rule.split('/')[0]));
    assert.deepEqual([...hostRules].sort(), ['gemini', 'readiness']);
    const bad = await runCli(['lint', '--host', 'bing', ...fixture]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--host must be claude, openai, gemini, cursor or all/);
  });

  test('the demo server: its findings, by rule (a change here is a change to the demo or the rules)', async () => {
    // Five tools a page: pagination is followed to the end without duplicates.
    const { code, out } = await lint(['--', 'env', 'MCPKIT_PAGE_SIZE=5', process.execPath, demoScript]);
    assert.equal(code, 0);
    const byRule: Record<string, number> = {};
    for (const f of out.findings)
      byRule[`${f.severity} ${f.rule}`] = (byRule[`${f.severity} ${f.rule}`] ?? 0) + 1;
    assert.deepEqual(byRule, {
      'warning cursor/tool-count': 1,
      'warning gemini/unsupported-keyword': 2,
      'warning openai/strict-additional-properties': 49,
      'warning openai/strict-required': 10,
      'warning readiness/property-description': 13,
      'warning readiness/tool-annotations': 45,
      'info readiness/tool-title': 47,
    });
    assert.equal(out.summary.tools, 49);
    assert.equal(out.summary.pages.tools, 10);
    assert.equal(out.summary.errors, 0);
  });

  test('a server.json in the working directory is validated', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpkit-lint-'));
    try {
      writeFileSync(join(dir, 'server.json'), JSON.stringify({ name: 'not a reverse-dns name' }));
      const { code, out } = await lint(fixture, dir);
      assert.equal(code, 1);
      assert.ok(
        out.findings.some((f) => f.subject === 'server.json' && f.severity === 'error'),
        JSON.stringify(out.findings),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('over HTTP', () => {
    let demo: DemoProcess;
    before(async () => {
      demo = await startDemoProcess();
    });
    after(() => demo.stop());

    for (const era of ['legacy', 'modern'] as const) {
      test(`--era ${era}: the same tools, and the Server Card is looked for`, async () => {
        const { code, out, stderr } = await lint(['--era', era, '--url', demo.url]);
        assert.equal(code, 0, stderr);
        assert.equal(out.summary.tools, 49);
        assert.ok(
          out.findings.some((f) => f.subject === 'server-card'),
          JSON.stringify(out.findings.filter((f) => f.subject === 'server-card')),
        );
      });
    }
  });
});
