#!/usr/bin/env node
// A coverage-guided fuzzing loop on V8's precise block coverage (node:inspector), for the
// few targets in guided-targets.mjs. Each input runs alone between two coverage takes; an
// input that reaches a block not reached before joins the corpus, and new inputs are
// mutations of corpus entries. (Hit-count buckets as features, as AFL does, were tried:
// they grew the corpus without reaching more here.)
//   node test/fuzz/guided.mjs [--seconds N] [--target NAME]   guided run of each target
//   node test/fuzz/guided.mjs --compare [--seconds N]          guided vs the fast-check
//       property of the same target, and vs the same mutations of the seeds without the
//       feedback (--mode blind), each for N seconds in a fresh process: covered bytes of
//       the target's compiled code (a byte counts once a block containing it ran)
// Exits 1 with the input when a target's invariant breaks.
import { fork } from 'node:child_process';
import { Session } from 'node:inspector';
import { fileURLToPath } from 'node:url';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : process.argv[i + 1];
};
const seconds = Number(arg('--seconds', '10'));
const only = arg('--target', undefined);
const mode = arg('--mode', 'guided');

// ------------------------------------------------------------------------ coverage
const session = new Session();
session.connect();
/** The in-process inspector session answers synchronously. */
function post(method, params) {
  let out;
  let error;
  session.post(method, params, (e, r) => ((error = e), (out = r)));
  if (error) throw error;
  return out;
}
post('Profiler.enable');
post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });

/** A block counts as reached or not; V8 lists a nested block only where its count differs. */
const reached = (n) => (n > 0 ? 1 : 0);

/** Every range of the matching scripts, outer ranges before the ranges inside them. */
function rangesOf(result, files) {
  const out = [];
  for (const script of result) {
    if (!files.test(script.url)) continue;
    for (const fn of script.functions) for (const r of fn.ranges) out.push({ url: script.url, ...r });
  }
  return out.sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset);
}

/** Covered bytes: per script, a byte is 2 once a block holding it ran, 1 if only seen. */
class ByteMap {
  scripts = new Map();
  add(ranges) {
    const local = new Map();
    for (const r of ranges) {
      let a = local.get(r.url);
      if (!a || a.length < r.endOffset) {
        const b = new Uint8Array(Math.max(r.endOffset, a?.length ?? 0));
        if (a) b.set(a);
        local.set(r.url, (a = b));
      }
      a.fill(r.count > 0 ? 2 : 1, r.startOffset, r.endOffset);
    }
    for (const [url, a] of local) {
      let g = this.scripts.get(url);
      if (!g || g.length < a.length) {
        const b = new Uint8Array(a.length);
        if (g) b.set(g);
        this.scripts.set(url, (g = b));
      }
      for (let i = 0; i < a.length; i++) if (a[i] > g[i]) g[i] = a[i];
    }
  }
  summary() {
    let covered = 0;
    let known = 0;
    for (const a of this.scripts.values())
      for (const v of a) {
        if (v) known++;
        if (v === 2) covered++;
      }
    return { covered, known };
  }
}

// ------------------------------------------------------------------------ mutation
const rnd = (n) => Math.floor(Math.random() * n);
const SPECIAL = [
  '\n',
  '\r',
  '"',
  '\\',
  '{',
  '}',
  '[',
  ']',
  ':',
  ',',
  '%',
  '\u0000',
  '\u00ff',
  '\ud800',
  '😀',
];
function mutate(input, corpus, dictionary) {
  let s = input;
  for (let k = 1 + rnd(4); k > 0; k--) {
    const at = rnd(s.length + 1);
    switch (rnd(8)) {
      case 0:
        s = s.slice(0, at) + dictionary[rnd(dictionary.length)] + s.slice(at);
        break;
      case 1: {
        const len = 1 + rnd(8);
        s = s.slice(0, at) + s.slice(at + len);
        break;
      }
      case 2:
        s = s.slice(0, at) + String.fromCharCode(rnd(128)) + s.slice(at + 1);
        break;
      case 3:
        s = s.slice(0, at) + SPECIAL[rnd(SPECIAL.length)] + s.slice(at);
        break;
      case 4: {
        const from = rnd(s.length + 1);
        s = s.slice(0, at) + s.slice(from, from + 1 + rnd(16)) + s.slice(at);
        break;
      }
      case 5: {
        const other = corpus[rnd(corpus.length)];
        s = s.slice(0, at) + other.slice(rnd(other.length + 1));
        break;
      }
      case 6:
        s = s.slice(0, at) + String(rnd(3) === 0 ? -rnd(1e6) : rnd(1e3)) + s.slice(at);
        break;
      default:
        s = s.slice(0, at) + s.slice(at, at + 1).repeat(1 + rnd(64)) + s.slice(at + 1);
    }
  }
  return s.length > 1024 ? s.slice(0, 1024) : s;
}

// ------------------------------------------------------------------------ runs
async function guided(target) {
  const features = new Set();
  const bytes = new ByteMap();
  const corpus = [];
  let runs = 0;
  const tryInput = async (input) => {
    post('Profiler.takePreciseCoverage'); // resets the counters: only this input counts
    let timer;
    try {
      // A run that does not settle within 10 s is a hang, reported like a failure.
      const hang = new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`hang: no result in 10 s for ${JSON.stringify(input)}`)),
          10_000,
        );
      });
      await Promise.race([target.run(input), hang]);
      clearTimeout(timer);
    } catch (e) {
      console.error(`${target.name}: FAILED after ${runs} runs: ${e?.stack ?? e}`);
      process.exit(1);
    }
    runs++;
    const ranges = rangesOf(post('Profiler.takePreciseCoverage').result, target.files);
    bytes.add(ranges);
    let fresh = false;
    for (const r of ranges) {
      const key = `${r.url}|${r.startOffset}|${r.endOffset}|${reached(r.count)}`;
      if (!features.has(key)) {
        features.add(key);
        fresh = true;
      }
    }
    // --mode blind: the same mutations of the seeds alone, the control for the feedback.
    if (fresh && (mode !== 'blind' || corpus.length < target.seeds.length)) corpus.push(input);
  };
  // What ran while the modules loaded counts as covered, as it does for fast-check.
  bytes.add(rangesOf(atLoad, target.files));
  for (const seed of target.seeds) {
    await tryInput(seed);
    if (!corpus.includes(seed)) corpus.push(seed);
  }
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    // Half the time any entry, half the time a newer one (the frontier) more often.
    const pick = rnd(2)
      ? corpus[rnd(corpus.length)]
      : corpus[Math.max(0, corpus.length - 1 - rnd(Math.min(corpus.length, 1 + rnd(corpus.length))))];
    await tryInput(mutate(pick, corpus, target.dictionary));
  }
  return { runs, corpus: corpus.length, ...bytes.summary() };
}

async function fastCheck(target) {
  const fc = (await import('fast-check')).default;
  const t = targets.find((x) => x.name === target.name);
  const result = await fc.check(t.property(), {
    numRuns: Number.MAX_SAFE_INTEGER,
    interruptAfterTimeLimit: seconds * 1000,
    markInterruptAsFailure: false,
  });
  if (result.failed) {
    console.error(fc.defaultReportMessage(result));
    process.exit(1);
  }
  const bytes = new ByteMap();
  bytes.add(rangesOf(post('Profiler.takePreciseCoverage').result, target.files));
  return { runs: result.numRuns, ...bytes.summary() };
}

// Both modes load the same modules (targets.mjs loads more than the guided targets need),
// so the bytes each side could cover are the same.
const { guidedTargets, closeGuided } = await import('./guided-targets.mjs');
const { targets, closeTargets } = await import('./targets.mjs');
/** Coverage of the module loading, taken once; each guided target adds its own files' share. */
const atLoad = mode === 'fast-check' ? [] : post('Profiler.takePreciseCoverage').result;
const chosen = guidedTargets.filter((t) => !only || t.name === only);

if (process.argv.includes('--compare')) {
  // Each side in a fresh process, so neither inherits the other's compiled code or counts.
  const self = fileURLToPath(import.meta.url);
  const child = (target, m) =>
    new Promise((resolve, reject) => {
      const c = fork(self, ['--target', target, '--mode', m, '--seconds', String(seconds), '--json'], {
        stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      });
      let out = '';
      c.stdout.on('data', (d) => (out += d));
      c.on('exit', (code) =>
        code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${target} ${m}: exit ${code}`)),
      );
    });
  for (const t of chosen) {
    const f = await child(t.name, 'fast-check');
    const b = await child(t.name, 'blind');
    const g = await child(t.name, 'guided');
    const pct = (r) => ((100 * r.covered) / r.known).toFixed(1);
    console.log(
      `${t.name.padEnd(17)} ${seconds} s each: fast-check ${f.runs} runs, ${f.covered} bytes covered (${pct(f)}% of ${f.known}); ` +
        `blind mutation of the seeds ${b.runs} runs, ${b.covered} bytes (${pct(b)}%); ` +
        `guided ${g.runs} runs, corpus ${g.corpus}, ${g.covered} bytes covered (${pct(g)}% of ${g.known})`,
    );
  }
} else {
  for (const t of chosen) {
    const r = mode === 'fast-check' ? await fastCheck(t) : await guided(t);
    if (process.argv.includes('--json')) process.stdout.write(JSON.stringify(r));
    else
      console.log(
        `${t.name.padEnd(17)} guided: ${r.runs} runs in ${seconds} s, corpus ${r.corpus}, ${r.covered} of ${r.known} bytes covered`,
      );
  }
}
await closeTargets();
await closeGuided();
process.exit(0);
