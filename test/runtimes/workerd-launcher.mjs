// The workerd launcher of the runtime registry (launchers.mjs): bundles workerd-worker.mjs
// for Workers (rolldown, conditions workerd/worker/browser, ESM), writes a workerd config
// (no nodejs_compat: the core must load without node:*; the Durable Object namespace of the
// legacy-session store on disk, in a temporary folder) and runs `workerd serve` on 127.0.0.1:<port>.
// Ready once the port accepts a connection (polled with backoff: workerd prints nothing).
//
//   const running = await launchers.workerd.start({ port: 0 });  // { url, stop(), stderr() }
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runtimeBinary } from '../../scripts/runtimes.mjs';

const WORKER = fileURLToPath(new URL('./workerd-worker.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OUT = join(ROOT, 'dist', 'runtimes', 'workerd');
/** How long workerd may take to listen (a hang becomes an error). */
const START_MS = 30_000;
/** Recent, and no later than the workerd package's own date (it refuses dates it does not know). */
export const COMPATIBILITY_DATE = '2026-11-01';

/**
 * Bundles `entry` into `dir`/worker.js as one ES module, for Workers. `nodeStubs` lists
 * `node:` modules replaced by stubs (see below); empty means any node: import fails the build.
 */
export async function bundleWorker({ entry = WORKER, dir = OUT, nodeStubs = NODE_STUBS } = {}) {
  const { build } = await import('rolldown');
  mkdirSync(dir, { recursive: true });
  await build({
    input: entry,
    platform: 'browser',
    resolve: { conditionNames: ['workerd', 'worker', 'browser', 'import', 'default'] },
    // The optional peers load only when configured (serve({ redis }), the LLM providers):
    // left as imports, never reached in a Worker.
    external: ['ioredis', 'openai', '@anthropic-ai/sdk'],
    plugins: [stubNodeModules(nodeStubs)],
    logLevel: 'warn',
    output: { file: join(dir, 'worker.js'), format: 'esm', codeSplitting: false, minify: false },
  });
  return join(dir, 'worker.js');
}

// No node: module is stubbed: the default-condition entries load without one, and any node:
// import fails the build (nodejs_compat is off, as it is for a Worker that does not ask for it).
const NODE_STUBS = {};

function stubNodeModules(stubs) {
  return {
    name: 'stub-node-modules',
    resolveId(id, importer) {
      if (Object.hasOwn(stubs, id)) return `\0stub:${id}`;
      if (id.startsWith('node:')) throw new Error(`the Worker bundle imports ${id} (from ${importer})`);
      return null;
    },
    load(id) {
      if (id.startsWith('\0stub:')) return stubs[id.slice('\0stub:'.length)];
      return null;
    },
  };
}

/**
 * The workerd config: one Worker, its Durable Object namespace (in memory, or on disk in
 * `storageDir` so that a restarted workerd finds the same objects), one HTTP socket.
 */
export function workerdConfig({ port, script = 'worker.js', storageDir, durableObjects = true }) {
  const disk = storageDir
    ? `, (name = "do-disk", disk = (path = ${JSON.stringify(storageDir)}, writable = true))`
    : '';
  const storage = storageDir ? '(localDisk = "do-disk")' : '(inMemory = void)';
  const objects = durableObjects
    ? `
  durableObjectNamespaces = [ (className = "McpSessionObject", uniqueKey = "mcpkit-runtime-sessions") ],
  durableObjectStorage = ${storage},
  bindings = [ (name = "MCP_SESSIONS", durableObjectNamespace = "McpSessionObject") ],`
    : '';
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .mcpWorker)${disk} ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);

const mcpWorker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "${script}") ],
  compatibilityDate = "${COMPATIBILITY_DATE}",${objects}
);
`;
}

/** A port free right now on 127.0.0.1 (workerd cannot report the one it picked for :0). */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Resolves once 127.0.0.1:port accepts a connection; rejects when `gone()` turns true first. */
async function waitForPort(port, gone) {
  for (let delay = 5; ; delay = Math.min(delay * 2, 200)) {
    const ok = await new Promise((resolve) => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (gone()) throw new Error('workerd exited before listening');
    await new Promise((r) => setTimeout(r, delay));
  }
}

let bundled;
/** Other Worker modules bundled by start({ script }), by path. */
const others = {};

export const workerd = {
  name: 'workerd',
  label: 'workerd',
  binary: () => runtimeBinary('workerd'),
  /** `start({ script })` takes a Worker module (`export default { fetch }`), not a process script. */
  worker: true,
  /**
   * Bundles once per process, then serves the Worker on `port` (0: a free one), its Durable
   * Objects in `storageDir` (an existing folder), else in a temporary one removed by stop(). Resolves to
   * { url, pid, stderr(), stop() } as the other launchers do, once the port answers (workerd
   * prints nothing when ready), within START_MS. With `script`, serves that Worker module
   * instead (bundled beside, once), with no Durable Object binding: the benchmark's floor.
   */
  async start({ port = 0, storageDir, script } = {}) {
    if (script !== undefined) {
      const dir = join(OUT, '..', `workerd-${basename(script, '.mjs')}`);
      await (others[script] ??= bundleWorker({ entry: script, dir }));
      return serveBundle({ dir, port, configFor: (p) => workerdConfig({ port: p, durableObjects: false }) });
    }
    await (bundled ??= bundleWorker());
    if (storageDir !== undefined) return serveBundle({ dir: OUT, port, storageDir });
    // workerd's in-memory Durable Object storage goes with the object, which workerd evicts
    // after about ten idle seconds: a legacy session left alone that long was lost (404). On
    // disk, in a folder of its own, as Cloudflare's storage would keep it.
    const own = mkdtempSync(join(tmpdir(), 'mcpkit-workerd-do-'));
    const running = await serveBundle({ dir: OUT, port, storageDir: own }).catch((err) => {
      rmSync(own, { recursive: true, force: true });
      throw err;
    });
    const stop = async () => {
      await running.stop();
      rmSync(own, { recursive: true, force: true });
    };
    return { ...running, stop, [Symbol.asyncDispose]: stop };
  },
  /** The deploy page whose `// server.ts` (the Worker with the Durable Object) runs as pasted. */
  recipe: 'docs/deploy/cloudflare-workers.md',
  /** Bundles the page's server.ts as wrangler would (with the same temporary node: stubs) and serves it. */
  async startRecipe({ file, cwd }) {
    await bundleWorker({ entry: file, dir: cwd, nodeStubs: NODE_STUBS });
    return serveBundle({ dir: cwd, port: 0 });
  },
  /**
   * Runs mcpkit's client inside workerd (workerd-client-worker.mjs, bundled once per process)
   * against `url`, each of `eras` in turn: one summary per era, as client-fixture.mjs prints
   * them, each with what workerd wrote on stderr.
   */
  async runClients({ url, eras }) {
    await (clientBundled ??= bundleWorker({ entry: CLIENT_WORKER, dir: CLIENT_OUT }));
    return runClientWorker({ url, eras });
  },
  // No runClient (one era): the suite needs only runClients.
};

/**
 * Runs `workerd serve` on `dir`/worker.js; resolves once the port answers. `configFor(port)`
 * gives another config than the server's (the client Worker's).
 */
async function serveBundle({ dir, port, storageDir, configFor }) {
  const bin = runtimeBinary('workerd');
  const chosen = port === 0 ? await freePort() : port;
  const config = join(dir, `config-${chosen}.capnp`);
  writeFileSync(config, configFor ? configFor(chosen) : workerdConfig({ port: chosen, storageDir }));
  const child = spawn(bin, ['serve', config, '--experimental'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  let gone = false;
  const exited = new Promise((resolve) => child.once('exit', () => resolve((gone = true))));
  child.once('error', () => (gone = true));
  const stop = async () => {
    if (gone) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(killer);
  };
  const limit = setTimeout(() => (gone = true), START_MS);
  try {
    await waitForPort(chosen, () => gone);
  } catch (err) {
    await stop();
    throw new Error(`workerd did not listen on ${chosen}: ${err.message}; stderr:\n${stderr}`, {
      cause: err,
    });
  } finally {
    clearTimeout(limit);
  }
  return {
    url: `http://127.0.0.1:${chosen}/mcp`,
    pid: child.pid,
    stderr: () => stderr,
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

const CLIENT_WORKER = fileURLToPath(new URL('./workerd-client-worker.mjs', import.meta.url));
const CLIENT_OUT = join(ROOT, 'dist', 'runtimes', 'workerd-client');
/** How long the client Worker may take for all its eras (a hang becomes an error). */
const CLIENT_MS = 60_000;
let clientBundled;

/**
 * The client Worker's config: its fetches go out through a network service that allows
 * loopback and private addresses (the default outbound reaches only public ones), where the
 * server under test listens.
 */
export function workerdClientConfig({ port, script = 'worker.js' }) {
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "client", worker = .clientWorker),
    (name = "loopback", network = (allow = ["local", "private"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "client") ],
);

const clientWorker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "${script}") ],
  compatibilityDate = "${COMPATIBILITY_DATE}",
  globalOutbound = "loopback",
);
`;
}

/** Serves the bundled client Worker, asks it to `/run`, stops it: one summary per era. */
async function runClientWorker({ url, eras }) {
  const running = await serveBundle({
    dir: CLIENT_OUT,
    port: 0,
    configFor: (port) => workerdClientConfig({ port }),
  });
  const run = new URL('/run', running.url);
  run.searchParams.set('url', url);
  run.searchParams.set('eras', eras.join(','));
  let body = '';
  let summaries;
  let failure;
  try {
    const res = await fetch(run, { signal: AbortSignal.timeout(CLIENT_MS) });
    body = await res.text();
    summaries = JSON.parse(body);
  } catch (err) {
    failure = err;
  } finally {
    await running.stop();
  }
  // Once workerd has exited, all it wrote on stderr is in.
  const stderr = running.stderr();
  if (!Array.isArray(summaries)) {
    const error = `the client Worker answered no summaries (${failure?.message ?? 'not an array'}): ${body}\n${stderr}`;
    return eras.map((era) => ({ asked: era, error, stderr }));
  }
  return eras
    .map(
      (era, i) =>
        summaries[i] ?? { asked: era, error: `the client Worker gave no summary for ${era}: ${body}` },
    )
    .map((summary) => ({ ...summary, stderr }));
}
