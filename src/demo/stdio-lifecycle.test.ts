/**
 * The stdio entry point as a process: what it writes, how it survives bad input, and how
 * it ends. Most tests drive the child by hand (raw lines on stdin) because they send
 * things no well-behaved client would.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MetaKey } from '../protocol/meta-keys.js';
import { StdioClientTransport } from '../transports/stdio/index.js';
import { openClient } from '../test-support/mcp-harness.js';
import type { Obj } from '../test-support/mcp-harness.js';
import { validateWireMessage } from '../test-support/wire-schema.js';
import { WAIT_MS, waitFor } from '../test-support/waiting.js';

const ENTRY = fileURLToPath(new URL('./everything-stdio.js', import.meta.url));
const LEGACY = '2025-11-25';
const MODERN = '2026-07-28';

/** A child driven by hand: raw lines in, parsed stdout lines and stderr text out. */
class RawChild {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: Obj[] = [];
  readonly problems: string[] = [];
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
  private readonly methods = new Map<unknown, string>();
  private buffered = '';

  constructor(
    readonly revision: string,
    env: Record<string, string> = {},
  ) {
    this.child = spawn(process.execPath, [ENTRY], {
      env: { PATH: process.env.PATH ?? '', MCPKIT_DEMO_STEP_MS: '10', ...env },
    });
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    this.child.stderr.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.child.stdout.on('data', (d: Buffer) => {
      this.buffered += d.toString();
      let nl: number;
      while ((nl = this.buffered.indexOf('\n')) >= 0) {
        const line = this.buffered.slice(0, nl);
        this.buffered = this.buffered.slice(nl + 1);
        this.receive(line);
      }
    });
  }

  /** Batches received (2025-03-26 only). */
  readonly batches: Obj[][] = [];

  /** Writes one raw line; requests are remembered so their answers can be validated. */
  write(line: string | Obj | Obj[]): void {
    if (typeof line !== 'string') {
      for (const m of Array.isArray(line) ? line : [line]) {
        if (m.id !== undefined && typeof m.method === 'string') this.methods.set(m.id, m.method);
      }
      line = JSON.stringify(line);
    }
    this.child.stdin.write(line + '\n');
  }

  /** The legacy handshake, done by hand. */
  async initialize(): Promise<void> {
    this.write({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: {
        protocolVersion: this.revision,
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      },
    });
    await this.response('init');
    this.write({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  response(id: unknown): Promise<Obj> {
    return waitFor(() => this.lines.find((l) => l.id === id && l.method === undefined));
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  private receive(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.problems.push(`stdout carried a line that is not JSON: ${line.slice(0, 200)}`);
      return;
    }
    if (Array.isArray(parsed)) {
      this.batches.push(parsed as Obj[]);
      for (const p of validateWireMessage(this.revision, parsed, { sender: 'server' })) {
        this.problems.push(`${p} in ${line.slice(0, 300)}`);
      }
      for (const item of parsed as Obj[]) this.check(item, line);
    } else {
      this.check(parsed as Obj, line);
    }
  }

  private check(message: Obj, line: string): void {
    this.lines.push(message);
    // JSON-RPC 2.0 answers an unreadable message with `id: null`, which the MCP schema
    // does not allow: the one known exception, skipped here.
    if (message.id === null && message.error !== undefined) return;
    const respondingTo = message.method === undefined ? this.methods.get(message.id) : undefined;
    for (const p of validateWireMessage(this.revision, message, {
      sender: 'server',
      ...(respondingTo ? { respondingTo } : {}),
    })) {
      this.problems.push(`${p} in ${line.slice(0, 300)}`);
    }
  }
}

const children: RawChild[] = [];
function rawChild(revision: string, env?: Record<string, string>): RawChild {
  const c = new RawChild(revision, env);
  children.push(c);
  return c;
}
afterEach(() => {
  for (const c of children.splice(0)) {
    c.kill();
    assert.deepEqual(c.problems, []);
  }
});

const modernMeta = {
  [MetaKey.ProtocolVersion]: MODERN,
  [MetaKey.ClientCapabilities]: {},
  [MetaKey.ClientInfo]: { name: 'raw', version: '1' },
};

describe('stdio entry point: output and bad input', () => {
  test('stdout carries only MCP messages; the startup line goes to stderr', async () => {
    const c = rawChild(LEGACY);
    await c.initialize();
    c.write({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'test_tool_with_logging' },
    });
    await c.response(1);
    assert.ok(c.lines.every((l) => l.jsonrpc === '2.0'));
    assert.equal(c.lines.filter((l) => l.method === 'notifications/message').length, 3);
    await waitFor(() => c.stderr.includes('ready on stdio'));
  });

  test('a garbage line gets -32700 and the server keeps serving', async () => {
    const c = rawChild(LEGACY);
    c.write('this is {not json');
    const error = await waitFor(() => c.lines.find((l) => l.id === null));
    assert.equal((error.error as Obj).code, -32700);
    await c.initialize();
    c.write({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'ok' } },
    });
    const r = await c.response(2);
    assert.equal(((r.result as Obj).content as Obj[])[0]?.text, 'ok');
  });

  test('a line over MCPKIT_MAX_MESSAGE_BYTES gets an error and the server keeps serving', async () => {
    const c = rawChild(LEGACY, { MCPKIT_MAX_MESSAGE_BYTES: '1024' });
    await c.initialize();
    const echo = (id: number, text: string) =>
      c.write({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text } },
      });
    echo(3, 'x'.repeat(5000));
    const error = await waitFor(() => c.lines.find((l) => l.id === null));
    assert.equal((error.error as Obj).code, -32600);
    assert.match(String((error.error as Obj).message), /exceeds the 1024-byte limit/);
    echo(4, 'small');
    const r = await c.response(4);
    assert.equal(((r.result as Obj).content as Obj[])[0]?.text, 'small');
    assert.equal(c.lines.filter((l) => l.id === 3).length, 0, 'the discarded request is never answered');
  });

  test('2025-03-26: a batch is answered with one batch; other revisions refuse batches', async () => {
    const c = rawChild('2025-03-26');
    await c.initialize();
    c.write([
      {
        jsonrpc: '2.0',
        id: 20,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'a' } },
      },
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      { jsonrpc: '2.0', id: 21, method: 'resources/read', params: { uri: 'test://static-text' } },
    ]);
    const batch = await waitFor(() => c.batches[0]);
    assert.deepEqual(batch.map((m) => m.id).sort(), [20, 21]);
    const later = rawChild(LEGACY);
    await later.initialize();
    later.write([{ jsonrpc: '2.0', id: 30, method: 'tools/list' }]);
    const refusal = await waitFor(() => later.lines.find((l) => l.id === null));
    assert.equal((refusal.error as Obj).code, -32600);
  });
});

describe('stdio entry point: ending', () => {
  test('exits by itself when stdin ends, after answering what is in flight', async () => {
    const c = rawChild(LEGACY);
    await c.initialize();
    c.write({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'slow_count', arguments: { n: 5 } },
    });
    c.write({
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'bye' } },
    });
    c.child.stdin.end();
    assert.deepEqual(await c.exited, { code: 0, signal: null });
    const answer = c.lines.find((l) => l.id === 7);
    assert.equal(((answer?.result as Obj).content as Obj[])[0]?.text, 'Counted to 5');
    assert.ok(c.lines.some((l) => l.id === 8 && l.result !== undefined));
  });

  test('exits when stdin ends even with a modern subscriptions/listen stream open', async () => {
    const c = rawChild(MODERN);
    c.write({
      jsonrpc: '2.0',
      id: 'listen',
      method: 'subscriptions/listen',
      params: { _meta: modernMeta, notifications: { toolsListChanged: true } },
    });
    await waitFor(() => c.lines.find((l) => l.method === 'notifications/subscriptions/acknowledged'));
    c.child.stdin.end();
    assert.deepEqual(await c.exited, { code: 0, signal: null });
  });

  test('close() leaves no process behind, grandchildren included', async () => {
    // The server is started by a shell that first leaves a grandchild running (which also
    // holds the stdout pipe open, as real wrapper scripts do).
    const transport = new StdioClientTransport({
      command: '/bin/sh',
      args: ['-c', 'sleep 30 & echo "grandchild=$!" >&2; exec "$0" "$1"', process.execPath, ENTRY],
      stderr: 'pipe',
      closeGraceMs: 300,
    });
    const client = await openClient(transport, LEGACY);
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const grandchild = Number(await waitFor(() => /grandchild=(\d+)/.exec(stderr)?.[1]));
    const child = transport.pid!;
    assert.ok(isRunning(child) && isRunning(grandchild), 'both run before close()');
    await client.close();
    assert.ok(!isRunning(child), 'the server is gone');
    await waitFor(() => !isRunning(grandchild), WAIT_MS);
    client.tap.assertValid();
  });
});

/**
 * Whether a process is still running: `process.kill(pid, 0)` succeeds, and it is not a
 * zombie (an exited process whose reaper, pid 1 in a container, has not collected it yet).
 */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc (macOS): trust kill(0)
  }
}
