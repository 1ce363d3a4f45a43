// How each runtime runs the fixtures: the registry the runtime tests, the runtime benchmark
// and the examples' tests share. Each launcher:
//   name, label            'deno', 'Deno'
//   binary()               the runtime's binary (installed into the cache on first use;
//                          throws when it cannot be, see scripts/runtimes.mjs)
//   start({ port, script?, args? })
//                          runs the server fixture (or `script`) and resolves once it printed
//                          `listening <url>`: { url, stderr(), stop(), [Symbol.asyncDispose] }
//   runClient({ url, era }) runs client-fixture.mjs on the runtime, resolves to its JSON line
//                          (plus `stderr`)
// The workerd launcher lives in workerd-launcher.mjs (exporting `workerd` with the same
// start(); it has no runClient: the client does not run inside a Worker) and joins the
// registry when present.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runtimeBinary } from '../../scripts/runtimes.mjs';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
export const SERVER_FIXTURE = here('./server-fixture.mjs');
export const CLIENT_FIXTURE = here('./client-fixture.mjs');
/** The repository root: fixtures run from here so `mcpkit/...` resolves to this package. */
export const ROOT = here('../../');

/** How long a runtime may take to start serving or to run the client (a hang becomes an error). */
const START_MS = 30_000;

/** The environment of a child runtime: ours, minus what node:test sets for its own children. */
function childEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  delete env.NODE_TEST_CONTEXT;
  delete env.NODE_OPTIONS;
  // Deno prints an update check and colours otherwise.
  env.DENO_NO_UPDATE_CHECK = '1';
  env.NO_COLOR = '1';
  return env;
}

/**
 * Runs `command args` and resolves once a stdout line starts with `listening `. The child is
 * killed if it does not get there within START_MS; its exit before that rejects with what it
 * wrote on stderr.
 */
export function startServerProcess(command, args, { env, cwd = ROOT, label = command } = {}) {
  const child = spawn(command, args, { cwd, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(killer);
    }
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${label} did not print "listening" within ${START_MS} ms; stderr:\n${stderr}`));
    }, START_MS);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`${label} could not start: ${err.message}`));
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited (${signal ?? code}) before listening; stderr:\n${stderr}${stdout}`));
    });
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
      const line = stdout.split('\n').find((l) => l.startsWith('listening '));
      if (line === undefined) return;
      clearTimeout(timer);
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolve({
        url: line.slice('listening '.length).trim(),
        pid: child.pid,
        stderr: () => stderr,
        stop,
        [Symbol.asyncDispose]: stop,
      });
    });
  });
}

/** Runs `command args` to the end; resolves to { code, stdout, stderr }. */
export function runProcess(command, args, { env, cwd = ROOT, timeoutMs = START_MS } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal, stdout, stderr });
    });
  });
}

/** The last JSON line a client fixture printed, with its stderr. */
function clientSummary({ code, stdout, stderr }, label) {
  const line = stdout.trim().split('\n').pop() ?? '';
  try {
    return { ...JSON.parse(line), stderr };
  } catch {
    return { error: `${label} client printed no summary (exit ${code}): ${stdout}${stderr}`, stderr };
  }
}

/**
 * A launcher for a runtime that runs a script as `binary ...prefix script ...args`.
 * `prefix` holds the runtime's own flags (Deno's permissions).
 */
function launcher(name, label, prefix = []) {
  return {
    name,
    label,
    binary: () => runtimeBinary(name),
    command(script, args = []) {
      return [runtimeBinary(name), [...prefix, script, ...args]];
    },
    start({ port = 0, script = SERVER_FIXTURE, args = [], env } = {}) {
      const [bin, argv] = this.command(script, ['--port', String(port), ...args]);
      return startServerProcess(bin, argv, { env, label });
    },
    async runClient({ url, era = 'auto', env } = {}) {
      const [bin, argv] = this.command(CLIENT_FIXTURE, ['--url', url, '--era', era]);
      return clientSummary(await runProcess(bin, argv, { env }), label);
    },
  };
}

// Deno runs the fixtures from the repository, whose package.json (with node_modules beside
// it) lets Deno resolve `mcpkit/...` and the dependencies the way Node does; the fixtures
// need the network (loopback), environment, and reading the package files.
const DENO_FLAGS = ['run', '--allow-net=127.0.0.1', '--allow-read', '--allow-env', '--allow-sys'];

export const launchers = {
  node20: launcher('node20', 'Node 20'),
  node22: launcher('node22', 'Node 22'),
  node24: launcher('node24', 'Node 24'),
  bun: launcher('bun', 'Bun', ['run']),
  deno: launcher('deno', 'Deno', DENO_FLAGS),
};

try {
  const { workerd } = await import('./workerd-launcher.mjs');
  if (workerd) launchers.workerd = workerd;
} catch (err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes('workerd-launcher')) throw err;
}
