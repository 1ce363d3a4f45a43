import assert from 'node:assert/strict';
import { spawnSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { startDemoProcess } from '../test-support/demo-process.js';
import type { DemoProcess } from '../test-support/demo-process.js';

// The CLI as a user runs it: the built binary, spawned, against real servers.
const main = fileURLToPath(new URL('./main.js', import.meta.url));
const stdioServer = fileURLToPath(new URL('../demo/everything-stdio.js', import.meta.url));
const everything = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);

function mcpkit(args: string[], input?: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [main, ...args], {
    encoding: 'utf8',
    input,
    timeout: 30_000,
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const stdio = ['--', process.execPath, stdioServer];

describe('mcpkit CLI over stdio (our demo server)', () => {
  test('tools lists a readable table and --json is machine-readable', () => {
    const t = mcpkit(['tools', ...stdio]);
    assert.equal(t.code, 0, t.stderr);
    assert.match(t.stdout, /^NAME\s+ARGUMENTS\s+DESCRIPTION/);
    assert.match(t.stdout, /\nadd\s+a b\s+/);
    const j = mcpkit(['tools', '--json', ...stdio]);
    const tools = JSON.parse(j.stdout) as Array<{ name: string }>;
    assert.ok(tools.some((x) => x.name === 'json_schema_2020_12_tool'));
  });

  test('call coerces key=value with the input schema; isError exits 1; bad arguments exit 2', () => {
    const ok = mcpkit(['call', 'add', 'a=2', 'b=40', ...stdio]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout.trim(), '42');
    const args = mcpkit(['call', 'echo', '--args', '{"text":"hi there"}', ...stdio]);
    assert.equal(args.stdout.trim(), 'hi there');
    const failed = mcpkit(['call', 'test_error_handling', ...stdio]);
    assert.equal(failed.code, 1);
    const bad = mcpkit(['call', 'add', 'a=x', 'b=1', ...stdio]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^mcpkit: a must be a number, not "x"\n$/);
    const missing = mcpkit(['call', 'nope', ...stdio]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no tool named "nope"/);
  });

  test('progress and logs go to stderr, the result to stdout', () => {
    const r = mcpkit(['call', 'slow_count', 'n=3', '--era', 'legacy', ...stdio]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'Counted to 3');
    assert.match(r.stderr, /\[#+\.*\] 33% Counted 1 of 3/);
    const logs = mcpkit(['call', 'test_tool_with_logging', '--era', 'legacy', ...stdio]);
    assert.match(logs.stderr, /\[info\] Tool execution started/);
  });

  test('read, prompt, complete, resources, templates, prompts', () => {
    assert.match(mcpkit(['read', 'test://template/9/data', ...stdio]).stdout, /Data for ID: 9/);
    assert.match(
      mcpkit(['prompt', 'test_prompt_with_arguments', 'arg1=x', 'arg2=y', ...stdio]).stdout,
      /user: Prompt with arguments: arg1='x', arg2='y'/,
    );
    assert.match(
      mcpkit(['complete', '--prompt', 'test_prompt_with_arguments', 'arg1', 'pa', ...stdio]).stdout,
      /paris/,
    );
    assert.match(mcpkit(['resources', ...stdio]).stdout, /test:\/\/static-text/);
    assert.match(mcpkit(['templates', ...stdio]).stdout, /test:\/\/template\/\{id\}\/data/);
    assert.match(mcpkit(['prompts', ...stdio]).stdout, /test_simple_prompt/);
  });

  test('--verbose shows the wire traffic on stderr', () => {
    const r = mcpkit(['tools', '--verbose', '--era', 'legacy', ...stdio]);
    assert.match(r.stderr, /→ \{"jsonrpc":"2.0","id":0,"method":"initialize"/);
    assert.match(r.stderr, /← \{"jsonrpc":"2.0","id":0,"result":\{"protocolVersion"/);
  });
});

describe('mcpkit CLI errors', () => {
  test('usage errors exit 2 with one line and no stack trace', () => {
    for (const args of [
      ['frobnicate'],
      ['tools'],
      ['call', '--url', 'ftp://x'],
      ['tools', '--era', 'ancient', ...stdio],
      ['tools', '--bogus'],
    ]) {
      const r = mcpkit(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    }
  });

  test('a server that cannot start or be reached exits 3', () => {
    const spawnFail = mcpkit(['tools', '--', 'definitely-not-a-command-xyz']);
    assert.equal(spawnFail.code, 3);
    assert.match(spawnFail.stderr, /ENOENT/);
    const unreachable = mcpkit(['tools', '--url', 'http://127.0.0.1:9/mcp']);
    assert.equal(unreachable.code, 3);
  });

  test('--help and each command help show examples', () => {
    const h = mcpkit(['--help']);
    assert.equal(h.code, 0);
    for (const cmd of ['tools', 'call', 'read', 'prompt', 'complete', 'shell', 'demo-server']) {
      assert.match(h.stdout, new RegExp(`\\n  ${cmd}\\s`));
      const c = mcpkit([cmd, '--help']);
      assert.equal(c.code, 0);
      assert.match(c.stdout, /Examples:/);
    }
  });
});

describe('mcpkit CLI over Streamable HTTP and against server-everything', () => {
  let demo: DemoProcess;
  let url = '';
  before(async () => {
    demo = await startDemoProcess();
    url = demo.url;
  });
  after(() => demo?.stop());

  test('each command works over HTTP in both eras', () => {
    for (const era of ['legacy', 'modern']) {
      assert.equal(mcpkit(['call', 'add', 'a=1', 'b=2', '--url', url, '--era', era]).stdout.trim(), '3');
      assert.match(
        mcpkit(['read', 'test://static-text', '--url', url, '--era', era]).stdout,
        /static text resource/,
      );
    }
  });

  test('the official server-everything, over stdio', () => {
    const target = ['--', process.execPath, everything, 'stdio'];
    const tools = mcpkit(['tools', ...target]);
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /\necho\s/);
    assert.match(mcpkit(['call', 'echo', 'message=hello', ...target]).stdout, /hello/);
    assert.equal(mcpkit(['call', 'get-sum', 'a=2', 'b=3', ...target]).code, 0);
    assert.equal(mcpkit(['prompts', ...target]).code, 0);
    assert.equal(mcpkit(['resources', ...target]).code, 0);
  });
});

describe('mcpkit demo and proxy', () => {
  test('mcpkit demo (what npm start runs) drives the host over a stdio and an HTTP server and exits 0', () => {
    const r = mcpkit(['demo']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /consent: start "local": .*cli\.js demo --stdio → yes/);
    // The notes server a user would write, not the conformance fixtures.
    assert.match(
      r.stdout,
      /local: local__search_notes, local__add_note, local__import_notes, local__delete_note, local__weekly_digest, local__show_board\n/,
    );
    assert.doesNotMatch(r.stdout, /test_/);
    assert.match(r.stdout, /structured: \{"notes":\[\{"id":"n2","title":"Trip to Lima"/);
    assert.match(r.stdout, /\[#+\] 100% imported "Gift ideas"\n {2}Imported 3 notes\./);
    assert.match(
      r.stdout,
      /the user is asked: "Delete "Groceries"\? It cannot be undone\." → \{"confirm":true\}\n {2}Deleted "Groceries"\./,
    );
    assert.match(r.stdout, /\[task\] working: summarizing #home\n/);
    assert.match(r.stdout, /\[task\] completed/);
    assert.match(r.stdout, /ui:\/\/notes\/board\.html: text\/html;profile=mcp-app, \d+ characters/);
    assert.match(r.stdout, /user: Make a plan of small steps for this note\.\n {2}Release 0\.2: /);
    assert.match(r.stdout, /\[health\] local: stopped/);
    assert.match(r.stdout, /Done\./);
  });

  test('mcpkit proxy bridges a stdio server to Streamable HTTP', async () => {
    const proxy = spawn(
      process.execPath,
      [main, 'proxy', '--to', 'http', '--port', '0', '--', process.execPath, stdioServer],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = '';
        proxy.stderr!.on('data', (d: Buffer) => {
          err += d.toString();
          const m = /mcpkit bridge: (http:\/\/\S+)/.exec(err);
          if (m) resolve(m[1]!);
        });
        proxy.once('exit', () => reject(new Error(err)));
      });
      assert.equal(mcpkit(['call', 'add', 'a=20', 'b=22', '--url', url]).stdout.trim(), '42');
    } finally {
      proxy.kill('SIGTERM');
    }
  });
});
