/**
 * The gateway and the host without a person to ask: stdin is not a terminal (here, a pipe)
 * and no --yes. Each server not started is named with the reason, the exit code says when
 * none could start, and a tool call whose approval cannot be asked names the config key
 * that would allow it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('./main.js', import.meta.url));
const server = fileURLToPath(new URL('../transports/stdio/fixtures/hardening-server.js', import.meta.url));
let dir: string;
let config: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcpkit-headless-'));
  config = join(dir, 'mcp.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        fixture: { command: process.execPath, args: [server] },
        other: { command: process.execPath, args: [server] },
      },
    }),
  );
});
after(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with piped stdin (no terminal), writing `lines` and ending stdin when `done` says so. */
function run(args: string[], lines: object[] = [], done?: (stdout: string) => boolean): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [main, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, HOME: dir },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (done?.(stdout)) child.stdin.end();
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    for (const l of lines) child.stdin.write(JSON.stringify(l) + '\n');
    if (!done) child.stdin.end();
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const init = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

describe('no terminal, no --yes', () => {
  test('proxy --config --to stdio: names each server not started, exits 3 when none could', async () => {
    const r = await run(['proxy', '--config', config, '--to', 'stdio']);
    assert.equal(r.code, 3, r.stderr);
    for (const name of ['fixture', 'other']) {
      assert.match(
        r.stderr,
        new RegExp(
          `server "${name}" was not started: consent to run its command cannot be asked \\(no terminal\\).*--yes`,
        ),
      );
    }
  });

  test('host --config: the same', async () => {
    const r = await run(['host', '--config', config]);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /server "fixture" was not started: consent to run its command cannot be asked/);
  });

  test('proxy --yes: the servers start; a tool approval that cannot be asked names the config key', async () => {
    const call = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'fixture__pid', arguments: {} },
    };
    const r = await run(
      ['proxy', '--config', config, '--to', 'stdio', '--yes'],
      [init, { jsonrpc: '2.0', method: 'notifications/initialized' }, call],
      (out) => out.includes('"id":1'),
    );
    const answer = r.stdout
      .split('\n')
      .filter((l) => l.includes('"id":1'))
      .map(
        (l) =>
          JSON.parse(l) as {
            result?: { isError?: boolean; content?: Array<{ text?: string }> };
            error?: { message: string };
          },
      )[0];
    assert.ok(answer, r.stderr);
    const text = answer.error?.message ?? answer.result?.content?.[0]?.text ?? '';
    assert.ok(answer.error !== undefined || answer.result?.isError === true, 'the call is refused');
    assert.match(text, /set mcpServers\.fixture\.policy\.tools\.pid to "allow"/);
  });
});
