// The workerd launcher of the runtime registry (launchers.mjs): bundles workerd-worker.mjs
// for Workers (rolldown, conditions workerd/worker/browser, ESM), writes a workerd config
// (no nodejs_compat: the core must load without node:*; the Durable Object namespace of the
// legacy-session store kept in memory) and runs `workerd serve` on 127.0.0.1:<port>.
// Ready once the port accepts a connection (workerd-serve.mjs polls it with backoff).
//
//   const running = await launchers.workerd.start({ port: 0 });  // { url, stop(), stderr() }
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runtimeBinary } from '../../scripts/runtimes.mjs';

const WORKER = fileURLToPath(new URL('./workerd-worker.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OUT = join(ROOT, 'dist', 'runtimes', 'workerd');
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

// TEMPORARY (until mcpkit/http-server has a node-free default condition): its chunk imports
// node:http (serve) and node:buffer (isUtf8) at load. Workers without nodejs_compat have
// neither, so the bundle gets stubs: isUtf8 on TextDecoder, createServer throwing.
const NODE_STUBS = {
  'node:buffer': `export function isUtf8(b) { try { new TextDecoder('utf-8', { fatal: true }).decode(b); return true; } catch { return false; } }`,
  'node:http': `export function createServer() { throw new Error('node:http is not available in Workers'); }`,
};

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

/** The workerd config: one Worker, its Durable Object namespace in memory, one HTTP socket. */
export function workerdConfig({ port, script = 'worker.js' }) {
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .mcpWorker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);

const mcpWorker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "${script}") ],
  compatibilityDate = "${COMPATIBILITY_DATE}",
  durableObjectNamespaces = [ (className = "McpSessionObject", uniqueKey = "mcpkit-runtime-sessions") ],
  durableObjectStorage = (inMemory = void),
  bindings = [ (name = "MCP_SESSIONS", durableObjectNamespace = "McpSessionObject") ],
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

let bundled;

export const workerd = {
  name: 'workerd',
  label: 'workerd',
  binary: () => runtimeBinary('workerd'),
  /** Bundles once per process, then serves the Worker on `port` (0: a free one). */
  async start({ port = 0, env } = {}) {
    const bin = runtimeBinary('workerd');
    await (bundled ??= bundleWorker());
    const chosen = port === 0 ? await freePort() : port;
    const config = join(OUT, `config-${chosen}.capnp`);
    writeFileSync(config, workerdConfig({ port: chosen }));
    // startServerProcess waits for a "listening" line; workerd prints none, so the script
    // wrapper below prints it once the port answers.
    // Imported here, not at the top: launchers.mjs imports this module from its top-level await.
    const { startServerProcess } = await import('./launchers.mjs');
    return startServerProcess(process.execPath, [WRAPPER, bin, config, String(chosen)], {
      env,
      label: 'workerd',
    });
  },
};

const WRAPPER = fileURLToPath(new URL('./workerd-serve.mjs', import.meta.url));
