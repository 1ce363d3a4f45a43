/**
 * Supervision of one configured server: start it (after consent for a local command),
 * connect, watch the connection, restart a crashed process or reconnect a lost HTTP
 * server with exponential backoff up to a cap, and stop it cleanly. Its health is a small
 * state machine reported through `onhealth`.
 */
import { Client } from '../../client/client.js';
import type { ClientHandlers } from '../../client/types.js';
import type { Transport } from '../../jsonrpc/index.js';
import type { SessionLogger } from '../../session/index.js';
import type { ServerConfig } from '../config/config-types.js';
import { HostError, errorText } from '../errors.js';
import type { TelemetrySetting } from '../../telemetry/telemetry-options.js';

/** Where a server is in its life. */
export type ServerState =
  | 'idle'
  | 'awaiting-consent'
  | 'connecting'
  | 'ready'
  | 'restarting'
  | 'failed'
  | 'refused'
  | 'disabled'
  | 'stopped';

/** A snapshot of one server's health, for UIs. */
export interface ServerHealth {
  name: string;
  state: ServerState;
  transport: ServerConfig['transport'];
  /** The child's process id (stdio, while running). */
  pid: number | undefined;
  /** Restarts since the last stable connection. */
  restarts: number;
  /** Why it last failed, with the tail of its stderr for a local server. */
  lastError: string | undefined;
  /** When the current connection was made (ms since epoch). */
  connectedAt: number | undefined;
  /** When the next attempt is due (restarting). */
  nextAttemptAt: number | undefined;
  serverInfo: { name: string; version: string } | undefined;
  era: string | undefined;
  protocolVersion: string | undefined;
}

/** What a connection needs from the host. */
export interface ConnectionDeps {
  clientInfo: { name: string; version: string };
  /** Extra capabilities merged over those the handlers declare. */
  capabilities?: Record<string, unknown>;
  handlers: ClientHandlers;
  /** The clients' telemetry setting (off when absent). */
  telemetry?: TelemetrySetting;
  /** Builds the transport of one attempt (the host's factory: stdio or HTTP). */
  serverTransport(config: ServerConfig): Transport;
  /** Asked before a local command's first start; false leaves the server `refused`. */
  consent(config: ServerConfig, signal: AbortSignal): Promise<boolean>;
  logger: SessionLogger;
}

const STDERR_LINES = 40;

/** The part of a readable stream the stderr capture uses. */
interface LineSource {
  on(event: 'data', fn: (chunk: { toString(): string }) => void): unknown;
  on(event: 'error', fn: () => void): unknown;
  once?(event: 'close', fn: () => void): unknown;
  readonly closed?: boolean;
}

/**
 * How long a failed start waits for the process's stderr to close, so the lines it wrote
 * just before dying (usually the reason) reach the message; a grandchild holding the pipe
 * open must not hold up the report for longer.
 */
const STDERR_DRAIN_MS = 1000;

/**
 * One server under supervision. The host makes one per configured server.
 *
 * @example
 * ```ts
 * const conn = new ServerConnection(config.servers.files, deps);
 * conn.onhealth = (h) => console.error(h.name, h.state, h.lastError ?? '');
 * conn.onready = (client) => refreshCatalog(client);
 * await conn.start();
 * ```
 */
export class ServerConnection {
  onhealth: ((health: ServerHealth) => void) | undefined;
  /** A new connection is up: (re)build what depends on it. Called just before `ready` is announced. */
  onready: ((client: Client) => void) | undefined;
  /** The connection went away (the catalog drops its entries until it is back). */
  ondown: (() => void) | undefined;

  private state: ServerState = 'idle';
  private client: Client | undefined;
  private transport: Transport | undefined;
  private restarts = 0;
  private lastError: string | undefined;
  private connectedAt: number | undefined;
  private nextAttemptAt: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly stopping = new AbortController();
  private readonly stderr: string[] = [];
  private attempt: Promise<void> | undefined;

  constructor(
    readonly config: ServerConfig,
    private readonly deps: ConnectionDeps,
  ) {}

  get name(): string {
    return this.config.name;
  }

  /** The live client, when `ready`. */
  get current(): Client | undefined {
    return this.state === 'ready' ? this.client : undefined;
  }

  /** The last lines the server wrote to stderr (stdio with `stderr: 'capture'`). */
  get stderrTail(): readonly string[] {
    return this.stderr;
  }

  health(): ServerHealth {
    const c = this.client;
    const info = this.state === 'ready' ? c?.serverInfo : undefined;
    return {
      name: this.name,
      state: this.state,
      transport: this.config.transport,
      pid: this.state === 'ready' ? (this.transport as { pid?: number } | undefined)?.pid : undefined,
      restarts: this.restarts,
      lastError: this.lastError,
      connectedAt: this.connectedAt,
      nextAttemptAt: this.nextAttemptAt,
      serverInfo: info ? { name: info.name, version: info.version } : undefined,
      era: this.state === 'ready' ? c?.era : undefined,
      protocolVersion: this.state === 'ready' ? c?.protocolVersion : undefined,
    };
  }

  /**
   * Starts the server and resolves once it is ready, refused, disabled or has failed its
   * first attempt (then restarts continue in the background, per the restart policy).
   */
  async start(): Promise<void> {
    if (this.config.disabled) return this.set('disabled');
    if (this.state !== 'idle') return;
    if (this.config.transport === 'stdio') {
      this.set('awaiting-consent');
      let ok = false;
      try {
        ok = await this.deps.consent(this.config, this.stopping.signal);
      } catch (e) {
        this.lastError = `Consent could not be asked: ${errorText(e)}`;
      }
      if (this.stopping.signal.aborted) return;
      if (!ok) {
        this.lastError ??= `Starting ${JSON.stringify(this.config.command)} was not allowed`;
        return this.set('refused');
      }
    }
    await this.connectOnce();
  }

  /**
   * Reports that a call failed in a way that suggests the connection is gone (an HTTP
   * server that stopped answering): the connection is dropped and re-established.
   */
  suspectDown(error: unknown): void {
    if (this.state !== 'ready') return;
    this.lastError = errorText(error);
    const client = this.client;
    this.client = undefined;
    this.wentDown();
    void client?.close();
  }

  /** Stops the server for good: closes the connection (the process group gets SIGTERM, then SIGKILL). */
  async stop(): Promise<void> {
    this.stopping.abort();
    clearTimeout(this.timer);
    this.timer = undefined;
    const client = this.client;
    this.client = undefined;
    await this.attempt?.catch(() => undefined);
    await client?.close().catch(() => undefined);
    // An attempt that was under way may have set a client meanwhile.
    await (this.client as Client | undefined)?.close().catch(() => undefined);
    if (this.state !== 'disabled' && this.state !== 'refused') this.set('stopped');
  }

  private set(state: ServerState): void {
    this.state = state;
    try {
      this.onhealth?.(this.health());
    } catch (e) {
      this.deps.logger('error', `A health listener threw: ${errorText(e)}`);
    }
  }

  private connectOnce(): Promise<void> {
    this.attempt = this.connect();
    return this.attempt;
  }

  private async connect(): Promise<void> {
    if (this.stopping.signal.aborted) return;
    this.set('connecting');
    this.nextAttemptAt = undefined;
    const { config } = this;
    const client = new Client(this.deps.clientInfo, {
      era: config.era,
      probeTimeoutMs: config.timeouts.probeMs,
      timeoutMs: config.timeouts.callMs,
      handlers: this.deps.handlers,
      ...(this.deps.capabilities ? { capabilities: this.deps.capabilities } : {}),
      logger: this.deps.logger,
      cacheNamespace: `host:${config.name}`,
      ...(this.deps.telemetry ? { telemetry: this.deps.telemetry } : {}),
    });
    let transport: Transport;
    try {
      transport = this.deps.serverTransport(config);
    } catch (e) {
      return this.failed(e);
    }
    this.transport = transport;
    this.client = client;
    this.stderr.length = 0;
    // Read the process's stderr from the moment it exists: Node discards what a child wrote
    // to a pipe nobody reads once it exits, and a server that dies at start says why there.
    if ('stderr' in transport && !Object.isFrozen(transport)) {
      const start = transport.start.bind(transport);
      transport.start = async (sink) => {
        await start(sink);
        this.captureStderr(transport);
      };
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new HostError(
                'Timeout',
                `No answer to the opening handshake within ${config.timeouts.connectMs} ms`,
              ),
            ),
          config.timeouts.connectMs,
        );
      });
      // The handshake is bounded by connectMs (the timer above), not by the per-call timeout.
      const connecting = client.connect(transport, { timeoutMs: config.timeouts.connectMs });
      connecting.catch(() => undefined);
      this.captureStderr(transport);
      await Promise.race([connecting, timeout]);
    } catch (e) {
      clearTimeout(timer);
      this.captureStderr(transport);
      await this.stderrClosed(transport);
      await client.close().catch(() => undefined);
      await transport.close().catch(() => undefined);
      if (this.client === client) this.client = undefined;
      return this.failed(e);
    } finally {
      clearTimeout(timer);
    }
    if (this.stopping.signal.aborted || this.client !== client) {
      await client.close().catch(() => undefined);
      return;
    }
    // A legacy server logs at every level until told otherwise; a modern one sends nothing
    // unless each request names a level. The host takes both alike (the level travels in
    // `_meta`: no round trip), so a tool's log lines reach the UI in either era.
    if (client.era === 'modern') await client.setLoggingLevel('debug').catch(() => undefined);
    this.connectedAt = Date.now();
    this.lastError = undefined;
    client.onclose = (error) => {
      if (this.client !== client || this.stopping.signal.aborted) return;
      this.client = undefined;
      this.lastError = this.withStderr(error ? error.message : 'The connection closed');
      this.wentDown();
    };
    // What depends on the connection (the first listing) starts before anyone hears
    // `ready`, so a health listener that calls at once finds that listing to wait on.
    try {
      this.onready?.(client);
    } catch (e) {
      this.deps.logger('error', `A ready listener threw: ${errorText(e)}`);
    }
    this.set('ready');
  }

  private wentDown(): void {
    const stable =
      this.connectedAt !== undefined && Date.now() - this.connectedAt >= this.config.restart.resetAfterMs;
    if (stable) this.restarts = 0;
    this.connectedAt = undefined;
    try {
      this.ondown?.();
    } catch (e) {
      this.deps.logger('error', `A down listener threw: ${errorText(e)}`);
    }
    this.scheduleRetry();
  }

  private failed(e: unknown): void {
    const reason = describeStartError(e, this.config);
    this.lastError = this.withStderr(reason);
    // A command that does not exist or may not run will not on a retry either.
    if (this.config.transport === 'stdio' && isPermanentStartError(e)) return this.set('failed');
    this.scheduleRetry();
  }

  /** Resolves once the process's stderr has closed (or after STDERR_DRAIN_MS). */
  private stderrClosed(transport: Transport): Promise<void> {
    const stream = (transport as { stderr?: LineSource | null }).stderr;
    if (!stream?.once || stream.closed === true) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, STDERR_DRAIN_MS);
      stream.once!('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private scheduleRetry(): void {
    if (this.stopping.signal.aborted) return;
    const { maxRestarts, initialDelayMs, maxDelayMs } = this.config.restart;
    if (this.restarts >= maxRestarts) {
      if (maxRestarts > 0)
        this.lastError = `${this.lastError ?? 'Failed'} (gave up after ${maxRestarts} restarts)`;
      return this.set('failed');
    }
    const delay = Math.min(maxDelayMs, initialDelayMs * 2 ** this.restarts);
    this.restarts++;
    this.nextAttemptAt = Date.now() + delay;
    this.set('restarting');
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.connectOnce();
    }, delay);
  }

  private readonly captured = new WeakSet<object>();

  private captureStderr(transport: Transport): void {
    const stream = (transport as { stderr?: LineSource | null }).stderr;
    if (!stream || this.captured.has(stream)) return;
    this.captured.add(stream);
    let partial = '';
    stream.on('data', (chunk) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      if (partial.length > 4096) partial = partial.slice(-4096);
      for (const line of lines) {
        if (line.trim() === '') continue;
        this.stderr.push(line.length > 500 ? line.slice(0, 500) + '…' : line);
        if (this.stderr.length > STDERR_LINES) this.stderr.shift();
      }
    });
    stream.on('error', () => undefined);
  }

  private withStderr(message: string): string {
    if (this.config.transport !== 'stdio' || this.stderr.length === 0) return message;
    return `${message}\n  stderr (last lines):\n${this.stderr
      .slice(-8)
      .map((l) => `    ${l}`)
      .join('\n')}`;
  }
}

/** Whether a start failed in a way no retry mends: the command is missing or not executable. */
function isPermanentStartError(e: unknown): boolean {
  for (
    let c = e, depth = 0;
    c !== undefined && depth < 5;
    c = c instanceof Error ? c.cause : undefined, depth++
  ) {
    const code = (c as { code?: unknown } | null)?.code;
    if (code === 'ENOENT' || code === 'EACCES') return true;
    if (/\b(ENOENT|EACCES)\b/.test(errorText(c))) return true;
  }
  return false;
}

/** A start failure in words a person can act on. */
function describeStartError(e: unknown, config: ServerConfig): string {
  const parts: string[] = [];
  for (
    let c = e, depth = 0;
    c !== undefined && depth < 5;
    c = c instanceof Error ? c.cause : undefined, depth++
  ) {
    const text = errorText(c);
    if (!parts.some((p) => p.includes(text))) parts.push(text);
  }
  const m = parts.join(' (') + ')'.repeat(parts.length - 1);
  if (config.transport === 'stdio') {
    if (/ENOENT/.test(m))
      return `Could not start ${JSON.stringify(config.command)}: command not found (check "command" and PATH)`;
    if (/EACCES/.test(m)) return `Could not start ${JSON.stringify(config.command)}: permission denied`;
    return `Server ${JSON.stringify(config.name)} did not start: ${m}`;
  }
  return `Could not connect to ${config.url}: ${m}`;
}
