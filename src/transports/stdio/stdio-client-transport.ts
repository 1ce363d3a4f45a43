import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { LocalError, serializeMessage } from '../../jsonrpc/index.js';
import type { JsonRpcMessage, Transport, TransportSink } from '../../jsonrpc/index.js';
import { DEFAULT_MAX_MESSAGE_BYTES, createFrameReader } from './frame-reader.js';
import { signalGroup, trackGroup, untrackGroup } from './process-groups.js';
import { WriteQueue } from './write-queue.js';

export interface StdioClientTransportOptions {
  command: string;
  args?: readonly string[];
  /** Extra environment variables, on top of a safe inherited set (or all of it, see inheritEnv). */
  env?: Record<string, string>;
  /** Pass the whole parent environment instead of the safe subset (default false). */
  inheritEnv?: boolean;
  cwd?: string;
  /** What to do with the server's stderr: pass it through (default), capture it, or drop it. */
  stderr?: 'inherit' | 'pipe' | 'ignore';
  maxMessageBytes?: number;
  /** How long to wait after ending stdin, and again after SIGTERM (default 2000 ms each). */
  closeGraceMs?: number;
}

/** Variables a server commonly needs, inherited by default; secrets are not passed on. */
const SAFE_ENV = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'USER',
  'LANG',
  'LC_ALL',
  'TMPDIR',
  'TZ',
  'SYSTEMROOT',
];

function childEnv(options: StdioClientTransportOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  if (options.inheritEnv) Object.assign(env, process.env);
  else for (const k of SAFE_ENV) if (process.env[k] !== undefined) env[k] = process.env[k];
  if (options.env) Object.assign(env, options.env);
  return env;
}

/**
 * The client end of stdio: spawns the server in its own process group, speaks
 * newline-delimited JSON-RPC over its stdin and stdout, and on close ends stdin, then
 * sends SIGTERM, then SIGKILL, to the whole group so no grandchild survives.
 *
 * @example
 * ```ts
 * const transport = new StdioClientTransport({ command: 'node', args: ['server.js'] });
 * await client.connect(transport);
 * ```
 */
export class StdioClientTransport implements Transport {
  readonly kind = 'stdio';
  private child: ChildProcess | undefined;
  private sink: TransportSink | undefined;
  private queue: WriteQueue | undefined;
  private closed = false;
  private exited: Promise<void> | undefined;
  private readonly framer;

  constructor(private readonly options: StdioClientTransportOptions) {
    this.framer = createFrameReader(options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES, () => this.sink);
  }

  /** The server's stderr, when `stderr: 'pipe'` was chosen. */
  get stderr(): Readable | null {
    return this.child?.stderr ?? null;
  }

  /** The child's process id once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(sink: TransportSink): Promise<void> {
    this.sink = sink;
    const { command, args = [], cwd } = this.options;
    return new Promise<void>((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = spawn(command, args, {
          cwd,
          env: childEnv(this.options),
          stdio: ['pipe', 'pipe', this.options.stderr ?? 'inherit'],
          detached: process.platform !== 'win32',
          windowsHide: true,
        });
      } catch (e) {
        reject(
          new LocalError('SpawnFailed', `Could not start "${command}": ${(e as Error).message}`, {
            cause: e,
          }),
        );
        return;
      }
      this.child = child;
      this.exited = new Promise((done) => child.once('close', () => done()));
      child.once('error', (e) => {
        if (child.pid === undefined) {
          this.closed = true;
          reject(new LocalError('SpawnFailed', `Could not start "${command}": ${e.message}`, { cause: e }));
        } else {
          this.terminate(
            new LocalError('ConnectionClosed', `Server process error: ${e.message}`, { cause: e }),
          );
        }
      });
      child.once('spawn', () => {
        if (child.pid !== undefined && process.platform !== 'win32') trackGroup(child.pid);
        this.queue = new WriteQueue(child.stdin!);
        child.stdin!.on('error', () => {
          // EPIPE when the child is gone; the exit handler reports it.
        });
        child.stdout!.on('data', (chunk: Buffer) => this.framer.push(chunk));
        child.stdout!.on('end', () => this.framer.end());
        child.once('exit', (code, signal) => {
          if (child.pid !== undefined) untrackGroup(child.pid);
          const how = signal ? `signal ${signal}` : `code ${code}`;
          this.terminate(
            this.closed ? undefined : new LocalError('ConnectionClosed', `Server process exited with ${how}`),
          );
        });
        resolve();
      });
    });
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> | void {
    if (this.closed || !this.queue) {
      return Promise.reject(new LocalError('ConnectionClosed', 'The server process is not running'));
    }
    return this.queue.push(serializeMessage(message));
  }

  /** Ends stdin, then escalates to SIGTERM and SIGKILL for the whole process group. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || child.pid === undefined) {
      this.terminate();
      return;
    }
    const pgid = child.pid;
    const grace = this.options.closeGraceMs ?? 2000;
    const wasClosed = this.closed;
    this.closed = true;
    this.queue?.flush();
    if (!wasClosed) child.stdin?.end();
    const running = child.exitCode === null && child.signalCode === null;
    if (running && !(await waitFor(this.exited!, grace))) {
      signal(child, pgid, 'SIGTERM');
      if (!(await waitFor(this.exited!, grace))) signal(child, pgid, 'SIGKILL');
      await waitFor(this.exited!, grace);
    }
    // Grandchildren may still hold the group after the leader exits: end them too.
    if (process.platform !== 'win32' && signalGroup(pgid, 0)) {
      signalGroup(pgid, 'SIGTERM');
      await delay(50);
      signalGroup(pgid, 'SIGKILL');
    }
    untrackGroup(pgid);
    this.terminate();
  }

  private terminate(error?: Error): void {
    const sink = this.sink;
    this.sink = undefined;
    this.closed = true;
    sink?.closed(error);
  }
}

function signal(child: ChildProcess, pgid: number, sig: NodeJS.Signals): void {
  if (process.platform === 'win32' || !signalGroup(pgid, sig)) child.kill(sig);
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function waitFor(p: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    void p.then(() => {
      clearTimeout(t);
      resolve(true);
    });
  });
}
