#!/usr/bin/env node
// Runs every client scenario of the official conformance suite against our conformance client
// (dist/conformance/client.js): both frozen requirement sets (2025-11-25 and 2026-07-28) at their
// own wire versions (the CLI passes it in MCP_CONFORMANCE_PROTOCOL_VERSION), and every scenario
// at its default version, one scenario at a time with a hard timeout and a process-group kill.
// The last line is "N passed, M failed"; see conformance-suite.mjs.
//
//   npm run conformance:client [-- --scenario NAME] [-- --verbose]
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { options, plan, report, runOne } from './conformance-suite.mjs';

const root = new URL('..', import.meta.url).pathname;
const client = join(root, 'dist', 'conformance', 'client.js');
const { only, verbose, node } = options(process.argv.slice(2));
// The suite gives the client 30 s; this bounds the CLI itself (mock servers, checks).
const HARD_TIMEOUT_MS = 45_000;

if (!existsSync(client)) {
  console.error(`${client} is missing: run \`npm run build\` first.`);
  process.exit(1);
}
// The suite splits the command on spaces.
if (/\s/.test(process.execPath + client)) {
  console.error('The paths of node and of the client must not contain spaces (the suite splits on them).');
  process.exit(1);
}

const p = plan(node, 'client', only);
if (p.runs.size === 0) {
  console.error(`No client scenario named ${only}`);
  process.exit(1);
}

const out = mkdtempSync(join(tmpdir(), 'mcpkit-conformance-client-'));
const command = `${process.execPath} ${client}`;
const results = new Map();
for (const [key, run] of p.runs) {
  const dir = join(out, key.replaceAll('/', '_'));
  const args = [
    'client',
    '--command',
    command,
    '--scenario',
    run.scenario,
    '--spec-version',
    run.version,
    '--force',
  ];
  const r = await runOne(node, args, dir, HARD_TIMEOUT_MS, verbose);
  results.set(key, {
    ...r,
    scenario: run.scenario,
    lastLine: r.lastLine.replace('[conformance-client] ', ''),
  });
  console.log(`${r.ok ? '✓' : '✗'} ${run.scenario} @ ${run.version} (${r.ms} ms)`);
}
console.log(`Results in ${out}`);
process.exitCode = report(p, results);
