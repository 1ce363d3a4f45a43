/**
 * The stdout guard of the stdio server: a handler that prints to stdout by any path
 * (console.log/info/debug/dir/table, process.stdout.write) must not corrupt the protocol
 * stream. The fixture server's `noisy` tool does all of them, twice; every stdout line
 * must still be a JSON-RPC message, and stderr names each culprit once.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const FIXTURE = fileURLToPath(new URL('./fixtures/hardening-server.js', import.meta.url));

describe('stdout guard', () => {
  test('every path to stdout is redirected to stderr, with one warning per culprit', async () => {
    const child = spawn(process.execPath, [FIXTURE], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const send = (m: object): void => void child.stdin.write(JSON.stringify(m) + '\n');
    send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'noisy', arguments: {} } });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'noisy', arguments: {} } });
    child.stdin.end();
    await once(child, 'close');
    const lines = out.split('\n').filter((l) => l !== '');
    const parsed = lines.map((l) => {
      try {
        return JSON.parse(l) as { jsonrpc?: string; id?: number; result?: unknown };
      } catch {
        return { notJson: l };
      }
    });
    assert.deepEqual(
      parsed.filter((m) => !('jsonrpc' in m)),
      [],
      'stdout carries JSON-RPC messages only',
    );
    assert.deepEqual(
      parsed.map((m) => (m as { id?: number }).id),
      [0, 1, 2],
    );
    for (const noise of [
      'console.log',
      'console.info',
      'console.debug',
      'console.dir',
      'console.table',
      'process.stdout.write',
    ]) {
      // Printed twice (two calls) plus named once in the warning.
      assert.ok(err.split(noise).length - 1 >= 3, `${noise} went to stderr`);
    }
    for (const culprit of ['console.log', 'console.dir', 'console.table', 'process.stdout.write']) {
      const warnings = err.split('\n').filter((l) => l.startsWith(`[mcpkit] ${culprit}()`));
      assert.equal(warnings.length, 1, `one warning names ${culprit}`);
    }
  });
});
