// Shared by conformance-server.mjs and conformance-client.mjs: which scenario runs at which wire
// version, running one scenario at a time with a hard timeout and a process-group kill, and the
// report (per requirement set, then every scenario, then "N passed, M failed").
//
// Three groups are reported:
// - each frozen requirement set (2025-11-25, 2026-07-28), every scenario run at the set's own
//   wire version; the set's `not_scored` entries run too and are shown apart, as the suite does;
// - every scenario the suite lists, at its default version (runs shared with the sets are reused);
// - scenarios where the suite itself is wrong (SUITE_FAULTS): run and shown, never scored.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { node22 } from './node22.mjs';

const root = new URL('..', import.meta.url).pathname;
export const cli = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
export const REQUIREMENT_SETS = ['2025-11-25', '2026-07-28'];

/**
 * Scenarios whose verdict the suite gets wrong: they run and are reported with the reason, but
 * never count as passed or failed. Each entry cites the suite source that shows the fault.
 */
export const SUITE_FAULTS = [
  {
    leg: 'client',
    scenario: 'request-metadata',
    reason:
      "the mock server answers the client's first request with -32022 whose data.supported is " +
      "['2026-07-28'], the very version it rejects (dist/index.js, class for 'request-metadata', " +
      'handleRequest: `if (!this.hasSimulatedRejection)` … `supported: [A]`); the spec lets the ' +
      'client conclude the server contradicts itself',
  },
  {
    leg: 'server',
    scenario: 'input-required-result-basic-elicitation',
    reason:
      'fails unless the input request is keyed exactly `user_name` ("inputRequests missing expected ' +
      'key \\"user_name\\"") although SEP-2322 leaves inputRequests keys to the server; the other ' +
      'input-required scenarios read the key the server chose',
  },
  {
    leg: 'server',
    scenario: 'input-required-result-ignore-extra-params',
    reason:
      'sends `inputResponses: { user_name: … }` in a first call without asking the server which ' +
      'key it uses, so the verdict depends on the server having picked `user_name` (SEP-2322 ' +
      'leaves keys to the server)',
  },
  {
    leg: 'server',
    scenario: 'tasks-status-notifications',
    reason:
      'its run() sends nothing and returns a single SKIPPED check: "The harness needs a rewrite ' +
      'against the new channel; tracked as a follow-up" (dist/index.js, class for ' +
      "'tasks-status-notifications'), so no server can pass or fail it",
  },
];

/** Parses the CLI's `list` output: scenario → applicability tags. */
function listScenarios(node, leg) {
  const out = spawnSync(node, [cli, 'list', `--${leg}`], { encoding: 'utf8' }).stdout;
  const scenarios = new Map();
  for (const m of out.matchAll(/^\s+- ([A-Za-z0-9_./-]+)(?: \[([^\]]*)\])?$/gm)) {
    scenarios.set(m[1], m[2] ? m[2].split(',') : []);
  }
  return scenarios;
}

/** Parses `list --requirements REV`: the scored scenarios of one leg and the not-scored ones with reasons. */
function requirementSet(node, revision, leg) {
  const out = spawnSync(node, [cli, 'list', '--requirements', revision], { encoding: 'utf8' }).stdout;
  const heading = leg === 'server' ? 'Server scenarios' : 'Client scenarios';
  const scored = [];
  const notScored = [];
  let section = '';
  let reason = '';
  for (const line of out.split('\n')) {
    if (/^Server scenarios|^Client scenarios/.test(line)) section = line.startsWith(heading) ? 'scored' : '';
    else if (line.startsWith('Run and reported')) section = 'not-scored';
    else if (section === 'scored') {
      const m = /^\s+- (\S+)$/.exec(line);
      if (m) scored.push(m[1]);
    } else if (section === 'not-scored') {
      const r = /^ {2}(\S[^(]*) \(\d+\):$/.exec(line);
      if (r) reason = r[1];
      const m = /^\s+- (\S+) \[(server|client)\]$/.exec(line);
      if (m && m[2] === leg) notScored.push({ scenario: m[1], reason });
    }
  }
  if (scored.length === 0) throw new Error(`the suite listed no ${leg} scenarios for ${revision}`);
  return { scored, notScored };
}

/** The version the CLI runs a scenario at when none is given (it mirrors the suite's own rule). */
function defaultVersion(tags) {
  return tags[0] === 'extension' || tags[0] === '2026-07-28' ? '2026-07-28' : '2025-11-25';
}

/** Every (scenario, version) run, and how each report group refers to them. */
export function plan(node, leg, only) {
  const all = listScenarios(node, leg);
  const runs = new Map();
  const key = (scenario, version) => `${scenario}@${version}`;
  const add = (scenario, version) => {
    if (only && scenario !== only) return undefined;
    const k = key(scenario, version);
    if (!runs.has(k)) runs.set(k, { scenario, version });
    return k;
  };
  const faults = new Map(SUITE_FAULTS.filter((f) => f.leg === leg).map((f) => [f.scenario, f.reason]));
  const sets = REQUIREMENT_SETS.map((revision) => {
    const { scored, notScored } = requirementSet(node, revision, leg);
    return {
      revision,
      scored: scored.map((s) => add(s, revision)).filter(Boolean),
      notScored: notScored
        .map((n) => ({ key: add(n.scenario, revision), reason: n.reason }))
        .filter((n) => n.key),
    };
  });
  const every = [...all].map(([s, tags]) => add(s, defaultVersion(tags))).filter(Boolean);
  return { runs, sets, every, faults };
}

/** Every checks.json under `dir` (the CLI nests them by scenario name and timestamp). */
function findChecks(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...findChecks(p));
    else if (name === 'checks.json') out.push(p);
  }
  return out;
}

function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * Runs one scenario in its own process group and reads its checks. A run passes when the CLI exits
 * 0 and wrote checks, none of them FAILURE or WARNING and at least one SUCCESS.
 */
export async function runOne(node, args, dir, timeoutMs, verbose) {
  const t0 = performance.now();
  const child = spawn(node, [cli, ...args, '-o', dir], {
    stdio: ['ignore', verbose ? 'inherit' : 'ignore', verbose ? 'inherit' : 'ignore'],
    detached: true,
  });
  const code = await new Promise((resolve) => {
    const t = setTimeout(() => resolve('timeout'), timeoutMs);
    child.once('exit', (c) => {
      clearTimeout(t);
      resolve(c);
    });
  });
  // On a timeout the CLI kills only the shell it started: end the whole group.
  killGroup(child.pid);
  let checks = [];
  const files = findChecks(dir);
  for (const file of files) {
    try {
      checks = checks.concat(JSON.parse(readFileSync(file, 'utf8')));
    } catch {
      // Unreadable results: counted as a failure below.
    }
  }
  const bad = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
  // A run whose own checks were all skipped tested nothing (the suite's synthetic wire-schema
  // check passes whenever messages flowed): it is not a pass.
  const tested = checks.some((c) => c.status === 'SUCCESS' && !c.id.startsWith('wire-schema-'));
  const ok = code === 0 && bad.length === 0 && tested;
  let why = bad.map((c) => `${c.id}: ${c.errorMessage ?? c.status}`).join('; ');
  if (!why && code === 0 && checks.length > 0) {
    const skipped = checks.find((c) => c.status === 'SKIPPED');
    why = `nothing tested, every check skipped: ${skipped?.errorMessage ?? ''}`;
  }
  if (!why)
    why = code === 'timeout' ? 'timed out' : `exit ${code}${checks.length === 0 ? ', no checks' : ''}`;
  const stderrFile = files.map((f) => join(f, '..', 'stderr.txt')).find((f) => existsSync(f));
  const lastLine = stderrFile ? readFileSync(stderrFile, 'utf8').trim().split('\n').pop() : '';
  return { ok, why, lastLine, ms: Math.round(performance.now() - t0) };
}

/** Prints the report and returns the exit code: 1 when any scored or listed run failed. */
export function report(p, results) {
  const label = (k) => k.replace('@', ' @ ');
  const line = (k, extra = '') => {
    const r = results.get(k);
    if (!r) return;
    const text = r.ok ? '' : ` — ${r.why}${r.lastLine ? ` [${r.lastLine}]` : ''}`;
    console.log(
      `  ${r.ok ? '✓' : '✗'} ${label(k)}${extra}${text.length > 500 ? `${text.slice(0, 500)}…` : text}`,
    );
  };
  const fault = (k) => p.faults.get(results.get(k)?.scenario ?? k.split('@')[0]);
  const count = (keys) => {
    const scored = keys.filter((k) => results.has(k) && !fault(k));
    return { passed: scored.filter((k) => results.get(k).ok).length, total: scored.length };
  };
  for (const set of p.sets) {
    const c = count(set.scored);
    console.log(`\nRequirement set ${set.revision}, scored: ${c.passed}/${c.total} passed`);
    for (const k of set.scored) if (!fault(k)) line(k);
    if (set.notScored.length > 0) {
      const n = count(set.notScored.map((x) => x.key));
      console.log(
        `Requirement set ${set.revision}, run but not scored by the suite: ${n.passed}/${n.total} passed`,
      );
      for (const x of set.notScored) if (!fault(x.key)) line(x.key, ` (${x.reason})`);
    }
  }
  const all = count(p.every);
  console.log(`\nAll scenarios at their default version: ${all.passed}/${all.total} passed`);
  for (const k of p.every) if (!fault(k)) line(k);
  const faulted = [...results.keys()].filter(fault);
  if (faulted.length > 0) {
    console.log('\nNot scored, the suite is wrong (shown for information, never counted as passed):');
    for (const k of faulted) {
      const r = results.get(k);
      console.log(`  - ${label(k)} (ran: ${r.ok ? 'no failing check' : r.why.slice(0, 200)})`);
      console.log(`      reason: ${fault(k)}`);
    }
  }
  const counted = [...results.keys()].filter((k) => !fault(k));
  const passed = counted.filter((k) => results.get(k).ok).length;
  console.log(`${passed} passed, ${counted.length - passed} failed`);
  return passed === counted.length ? 0 : 1;
}

/** Command-line options shared by both runners. */
export function options(argv) {
  const value = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  return { only: value('--scenario'), verbose: argv.includes('--verbose'), node: node22() };
}
