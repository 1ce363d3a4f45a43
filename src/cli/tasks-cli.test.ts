import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { startDemoProcess } from '../test-support/demo-process.js';
import type { DemoProcess } from '../test-support/demo-process.js';

// Tasks from the command line, as a user runs them: the built binary against
// server-everything's simulate-research-query and mcpkit's own demo server over HTTP.
const main = fileURLToPath(new URL('./main.js', import.meta.url));
const everything = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const everythingStdio = ['--', process.execPath, everything, 'stdio'];

function mcpkit(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [main, ...args], {
    encoding: 'utf8',
    input: '',
    timeout: 60_000,
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

describe('mcpkit call on task tools (server-everything)', () => {
  test('simulate-research-query runs as a task, with live status, and prints the report', () => {
    const r = mcpkit(['call', 'simulate-research-query', 'topic=otters', ...everythingStdio]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /# Research Report: otters/);
    assert.match(r.stderr, /\[task [^\]]+\] working: Gathering sources/);
    assert.match(r.stderr, /\[task [^\]]+\] completed/);
  });

  test('ambiguous=true: the question is asked at the terminal and the answer reaches the task', async () => {
    // A real terminal (script(1) gives the CLI a pty); the answer is typed once the question shows.
    const command = [process.execPath, main, 'call', 'simulate-research-query', 'topic=x', 'ambiguous=true']
      .concat(everythingStdio)
      .map(quote)
      .join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let answered = false;
    const done = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!answered && /interpretation \(/.test(out)) {
        answered = true;
        child.stdin.write('Marine biology\r');
      }
    });
    const code = await done;
    assert.equal(code, 0, out);
    assert.match(out, /input_required/);
    assert.match(out, /\*\*Clarification\*\*: Marine biology/);
  });
});

describe('mcpkit tasks against the demo server over HTTP', () => {
  let demo: DemoProcess;
  let url = '';
  before(async () => {
    demo = await startDemoProcess();
    url = demo.url;
  });
  after(() => demo?.stop());

  test('call --detach, then tasks get and tasks result from new processes (the extension)', () => {
    const target = ['--url', url, '--era', 'modern'];
    const started = mcpkit(['call', 'research_report', 'topic=otters', '--detach', ...target]);
    assert.equal(started.code, 0, started.stderr);
    const id = started.stdout.trim();
    assert.match(id, /^[0-9a-f-]{36}$/);
    const got = mcpkit(['tasks', 'get', id, ...target]);
    assert.equal(got.code, 0, got.stderr);
    assert.match(got.stdout, new RegExp(`^${id}  (working|completed)`));
    const result = mcpkit(['tasks', 'result', id, ...target]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), 'Report on otters: sources agree; nothing alarming found.');
    const long = mcpkit(['call', 'watch_until_cancelled', '--detach', ...target]).stdout.trim();
    const cancelled = mcpkit(['tasks', 'cancel', long, ...target]);
    assert.match(cancelled.stderr, /Cancel requested; the task is cancelled/);
    const unknown = mcpkit(['tasks', 'get', 'no-such-task', ...target]);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /Task not found/);
  });

  test('2025-11-25: tasks are the connection’s own, so a new process lists none', () => {
    const target = ['--url', url, '--era', 'legacy'];
    const r = mcpkit(['call', 'research_report', 'topic=seals', ...target]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /\[task [^\]]+\] completed/);
    const list = mcpkit(['tasks', 'list', ...target]);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stderr, /No tasks/);
  });
});
