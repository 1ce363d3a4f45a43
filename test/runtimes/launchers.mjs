// How each runtime runs the fixtures: the registry the runtime tests, the runtime benchmark
// and the examples' tests share. Each launcher:
//   name, label            'deno', 'Deno'
//   binary()               the runtime's binary (installed into the cache on first use;
//                          throws when it cannot be, see scripts/runtimes.mjs)
//   start({ port, script?, args? })
//                          runs the server fixture (or `script`) and resolves once it printed
//                          `listening <url>`: { url, stderr(), stop(), [Symbol.asyncDispose] }
//   runClient({ url, era }) runs client-fixture.mjs on the runtime, resolves to its JSON line
//                          (plus `stderr`); runClients({ url, eras }) several eras in one run
//   recipe, startRecipe({ file, cwd })
//                          (Bun, Deno) the deploy page and how it serves its server.ts
// The workerd launcher lives in workerd-launcher.mjs (exporting `workerd` with the same
// start(), and runClients() running the client as a Worker, workerd-client-worker.mjs) and
// joins the registry when present.
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

/** The fixtures' ready line: `listening <url>`. */
const LISTENING = /^listening (\S+)$/m;

/**
 * Runs `command args` and resolves once its output (stdout or stderr) matches `ready`, whose
 * first group is the URL: by default the fixtures' `listening <url>` line. The child is
 * killed if it does not get there within START_MS; its exit before that rejects with what it
 * wrote on stderr.
 */
export function startServerProcess(
  command,
  args,
  { env, cwd = ROOT, label = command, ready = LISTENING } = {},
) {
  const child = spawn(command, args, { cwd, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  let matched = false;
  // Set once the promise below exists: checks the output so far for the ready line.
  let check = () => {};
  child.stderr.setEncoding('utf8').on('data', (d) => {
    stderr += d;
    if (!matched) check();
  });
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
    check = () => {
      const found = ready.exec(stdout) ?? ready.exec(stderr);
      if (!found) return;
      matched = true;
      clearTimeout(timer);
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolve({
        url: found[1],
        pid: child.pid,
        stderr: () => stderr,
        stop,
        [Symbol.asyncDispose]: stop,
      });
    };
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
      check();
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
    let matched = false;
    // Set once the promise below exists: checks the output so far for the ready line.
    let check = () => {};
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
      if (!matched) check();
    });
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

/**
 * The JSON lines a client fixture printed for `eras`, in order, each with the run's stderr;
 * an era it printed nothing for gets an `error` saying so.
 */
function clientSummaries({ code, stdout, stderr }, eras, label) {
  const lines = stdout.split('\n').filter((l) => l.startsWith('{'));
  return eras.map((era, i) => {
    try {
      return { ...JSON.parse(lines[i]), stderr };
    } catch {
      return {
        asked: era,
        error: `${label} client printed no summary for ${era} (exit ${code}): ${stdout}${stderr}`,
        stderr,
      };
    }
  });
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
      return (await this.runClients({ url, eras: [era], env }))[0];
    },
    /** Several eras in one process (one start-up instead of one per era): one summary each. */
    async runClients({ url, eras, env }) {
      const [bin, argv] = this.command(CLIENT_FIXTURE, ['--url', url, '--era', eras.join(',')]);
      return clientSummaries(await runProcess(bin, argv, { env }), eras, label);
    },
  };
}

// Deno runs the fixtures from the repository, whose package.json (with node_modules beside
// it) lets Deno resolve `mcpkit/...` and the dependencies the way Node does; the fixtures
// need the network (loopback), environment, and reading the package files.
const DENO_FLAGS = ['run', '--allow-net=127.0.0.1', '--allow-read', '--allow-env', '--allow-sys'];

/**
 * How the deploy recipes (docs/deploy/bun.md, deno.md) run their `server.ts`: exactly the
 * command the page gives, on a free port, ready when the runtime prints where it listens.
 */
const RECIPES = {
  bun: {
    page: 'docs/deploy/bun.md',
    args: (file) => [file],
    env: { PORT: '0' },
    ready: /Started (?:development )?server:? (http:\/\/\S+?)\/?$/m,
  },
  deno: {
    page: 'docs/deploy/deno.md',
    args: (file) => ['serve', '--host', '127.0.0.1', '--port', '0', '--allow-env=MCP_ALLOWED_HOSTS', file],
    env: {},
    ready: /Listening on (http:\/\/\S+?)\/?$/m,
  },
};

/** Adds `recipe` (the page) and `startRecipe({ file })` (serves it; url ends in /mcp). */
function withRecipe(l) {
  const r = RECIPES[l.name];
  return {
    ...l,
    recipe: r.page,
    async startRecipe({ file, cwd }) {
      const running = await startServerProcess(runtimeBinary(l.name), r.args(file), {
        env: r.env,
        cwd,
        label: `${l.label} (${r.page})`,
        ready: r.ready,
      });
      return { ...running, url: `${running.url}/mcp` };
    },
  };
}

export const launchers = {
  node20: launcher('node20', 'Node 20'),
  node22: launcher('node22', 'Node 22'),
  node24: launcher('node24', 'Node 24'),
  bun: withRecipe(launcher('bun', 'Bun', ['run'])),
  deno: withRecipe(launcher('deno', 'Deno', DENO_FLAGS)),
};

try {
  const { workerd } = await import('./workerd-launcher.mjs');
  if (workerd) launchers.workerd = workerd;
} catch (err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes('workerd-launcher')) throw err;
}
