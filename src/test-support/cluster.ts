/**
 * Test-only support for the multi-node tests and the scale-out benchmark: Debian's
 * redis-server on a free loopback port with no persistence, `mcpkit demo-server --redis`
 * child processes, and haproxy in round-robin mode with no stickiness in front of them.
 * Everything binds 127.0.0.1 and is stopped by `close()`.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from './waiting.js';

const CLI = fileURLToPath(new URL('../cli/main.js', import.meta.url));

/** A free loopback port (the OS picks it; it is free again when this resolves). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Resolves when `child` prints a line matching `ready`; rejects if it exits first. */
function waitForLine(child: ChildProcess, ready: RegExp, what: string, timeoutMs = 15_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => fail(new Error(`${what} did not start in ${timeoutMs} ms: ${seen}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString();
      const m = ready.exec(seen);
      if (m) {
        cleanup();
        resolve(m[0]);
      }
    };
    const onExit = (code: number | null): void => fail(new Error(`${what} exited (${code}): ${seen}`));
    // A command that is not installed never starts: fail now rather than at the timeout.
    const onError = (e: Error): void => fail(new Error(`${what} could not start: ${e.message}`));
    const cleanup = (): void => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
    };
    const fail = (e: Error): void => {
      cleanup();
      reject(e);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  await exited(child);
}

/** Resolves once something accepts TCP connections on the port. */
async function listening(port: number, timeoutMs = 15_000): Promise<void> {
  const accepts = (): Promise<boolean> =>
    new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
  await waitFor(accepts, timeoutMs, `something to listen on ${port}`);
}

export interface RedisProcess {
  readonly port: number;
  readonly url: string;
  /** Stops Redis (its data is gone: no persistence). */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
}

/** Starts redis-server on a free loopback port, with no persistence (plus any `extraArgs`). */
export async function startRedis(extraArgs: readonly string[] = []): Promise<RedisProcess> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--protected-mode',
        'yes',
        ...extraArgs,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    await waitForLine(child, /Ready to accept connections/, 'redis-server');
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      if (child) await stop(child);
    },
    start,
  };
}

export interface NodeProcess {
  readonly port: number;
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything it printed. */
  output: string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `mcpkit demo-server --port N [--redis URL]` as a child process. */
export async function startNode(
  redisUrl: string | undefined,
  env: Record<string, string> = {},
): Promise<NodeProcess> {
  const port = await freePort();
  const args = [CLI, 'demo-server', '--port', String(port)];
  if (redisUrl) args.push('--redis', redisUrl);
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, MCPKIT_DEMO_STEP_MS: '20', ...env },
  });
  const node: NodeProcess = {
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    child,
    output: '',
    stop: (signal) => stop(child, signal),
  };
  child.stderr?.on('data', (c: Buffer) => (node.output += c.toString()));
  await waitForLine(child, /mcpkit demo server: /, `demo-server on ${port}`);
  return node;
}

/** The haproxy configuration: round robin, no stickiness, a dead node taken out at once. */
export function haproxyConfig(port: number, backends: readonly number[]): string {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 120s',
    '  timeout server 120s',
    '  # a refused connection is tried again on another node',
    '  option redispatch',
    '  retries 2',
    'frontend mcp',
    `  bind 127.0.0.1:${port}`,
    '  default_backend nodes',
    'backend nodes',
    '  balance roundrobin',
    ...backends.map((p, i) => `  server node${i + 1} 127.0.0.1:${p} check inter 500 fall 1 rise 2`),
    '',
  ].join('\n');
}

export interface Balancer {
  readonly port: number;
  readonly url: string;
  stop(): Promise<void>;
}

/** Starts haproxy in front of the given ports. */
export async function startHaproxy(backends: readonly number[]): Promise<Balancer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-haproxy-'));
  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(cfg, haproxyConfig(port, backends));
  const child = spawn('haproxy', ['-f', cfg, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const died = new Promise<never>((_, reject) => {
    child.once('exit', () => reject(new Error(`haproxy exited: ${output}`)));
    child.once('error', (e) => reject(new Error(`haproxy could not start: ${e.message}`)));
  });
  await Promise.race([listening(port), died]);
  died.catch(() => undefined);
  return {
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    stop: async () => {
      await stop(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Cluster {
  readonly redis: RedisProcess;
  readonly nodes: NodeProcess[];
  readonly balancer: Balancer;
  close(): Promise<void>;
}

/** Redis, `count` demo-server nodes sharing it, and haproxy in front. */
export async function startCluster(count = 3, env: Record<string, string> = {}): Promise<Cluster> {
  const redis = await startRedis();
  const nodes = await Promise.all(Array.from({ length: count }, () => startNode(redis.url, env)));
  const balancer = await startHaproxy(nodes.map((n) => n.port));
  return {
    redis,
    nodes,
    balancer,
    close: async () => {
      await balancer.stop();
      await Promise.all(nodes.map((n) => n.stop()));
      await redis.stop();
    },
  };
}
