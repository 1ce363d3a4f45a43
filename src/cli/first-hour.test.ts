// The rough edges a first-time user met, each as the user meets it: the built CLI spawned
// against real servers and real config files.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { TestAuthServer } from '../test-support/auth-test-server.js';
import { startProtectedMcp } from '../test-support/auth-fixtures.js';

const main = fileURLToPath(new URL('./main.js', import.meta.url));
const everythingStdio = fileURLToPath(new URL('../demo/everything-stdio.js', import.meta.url));
const officialEverything = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const dir = mkdtempSync(join(tmpdir(), 'mcpkit-first-hour-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function mcpkit(args: string[], input = ''): Run {
  const r = spawnSync(process.execPath, [main, ...args], {
    encoding: 'utf8',
    input,
    timeout: 60_000,
    // No stored credentials of the person running the tests.
    env: { ...process.env, NO_COLOR: '1', MCPKIT_CREDENTIALS: join(dir, 'credentials.json') },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** As `mcpkit`, without blocking this process (which serves the test's own HTTP servers). */
function mcpkitAsync(args: string[]): Promise<Run> {
  const child = spawn(process.execPath, [main, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', MCPKIT_CREDENTIALS: join(dir, 'credentials.json') },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** Writes a config file and returns its path. */
function config(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

const notes = { command: process.execPath, args: [main, 'demo', '--stdio'] };
const stdio = ['--', process.execPath, everythingStdio];
const noStack = (text: string): void => assert.doesNotMatch(text, /\n\s+at .+:\d+:\d+\)?\n/);

describe('mcpkit host, as a first run meets it', () => {
  test('without "llm" models the interactive provider answers, the tools are listed once, and the end of the input ends it', () => {
    const file = config(
      'notes.json',
      JSON.stringify({ mcpServers: { notes: { ...notes, policy: { default: 'allow' } } } }),
    );
    const input = [
      'find the trip note',
      '/tool notes__search_notes {"query":"trip"}',
      'It is n2.',
      'thanks',
      'bye',
      '',
    ].join('\n');
    const r = mcpkit(['host', '--config', file, '--yes'], input);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /No "llm" models in the config: you type the model's answers/);
    assert.doesNotMatch(r.stderr + r.stdout, /No LLM is configured/);
    assert.match(r.stderr, /← notes__search_notes: ok/);
    assert.match(r.stdout, /It is n2\.\nbye\n/);
    // The tool list on the first turn only; later turns say it is unchanged.
    assert.equal(r.stderr.split('tool notes__search_notes:').length - 1, 1, r.stderr);
    assert.match(r.stderr, /\(6 tools, as before: \/tools lists them/);
  });

  test('typos in the config are named with a suggestion; two problems are two lines; bad JSON has a line and column', () => {
    const typo = config(
      'typo.json',
      JSON.stringify({
        mcpServers: { notes: { ...notes, polcy: { default: 'allow' }, timeouts: { callMS: 5 } } },
      }),
    );
    const warned = mcpkit(['host', '--config', typo, '--yes']);
    assert.equal(warned.code, 0, warned.stderr);
    assert.match(
      warned.stderr,
      /mcpkit: warning: .*typo\.json: server "notes": unknown field "polcy" ignored \(did you mean "policy"\?\)/,
    );
    assert.match(warned.stderr, /unknown field "timeouts\.callMS" ignored \(did you mean "callMs"\?\)/);
    // Through --server too, which reads the file on its own.
    const listed = mcpkit(['tools', '--server', 'notes', '--config', typo, '--yes']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stderr, /unknown field "polcy" ignored \(did you mean "policy"\?\)/);

    const two = config(
      'two.json',
      JSON.stringify({ mcpServers: { a: { command: 5 }, b: { url: 'ftp://x' } } }),
    );
    const refused = mcpkit(['host', '--config', two]);
    assert.equal(refused.code, 2);
    assert.match(
      refused.stderr,
      /Invalid MCP config \(2 problems\):\n {2}- .*server "a": field "command": expected a string.*\n {2}- .*server "b": field "url"/,
    );

    const broken = config('broken.json', '{\n  "mcpServers": {\n    "a" 1\n  }\n}\n');
    assert.match(
      mcpkit(['host', '--config', broken]).stderr,
      /broken\.json: expected valid JSON, got line 3, column 9: /,
    );
    const viaServer = mcpkit(['tools', '--server', 'a', '--config', broken]);
    assert.equal(viaServer.code, 2);
    assert.match(viaServer.stderr, /broken\.json: not valid JSON: line 3, column 9: /);
  });

  test('a stdio server that dies at start shows its stderr; a missing command is not retried', () => {
    const file = config(
      'dead.json',
      JSON.stringify({
        mcpServers: {
          dead: {
            command: process.execPath,
            args: ['-e', "console.error('boom: NOTES_TOKEN is not set'); process.exit(1)"],
          },
          nope: { command: 'mcpkit-test-no-such-command' },
        },
      }),
    );
    const r = mcpkit(['host', '--config', file, '--yes']);
    assert.equal(r.code, 3);
    assert.match(
      r.stderr,
      /server "dead" was not started: .*\n {2}stderr \(last lines\):\n {4}boom: NOTES_TOKEN is not set/,
    );
    assert.match(
      r.stderr,
      /server "nope" was not started: Could not start "mcpkit-test-no-such-command": command not found/,
    );
    assert.match(r.stderr, /\[nope\] failed/);
    assert.doesNotMatch(r.stderr, /\[nope\] restarting/);

    const single = mcpkit([
      'tools',
      '--',
      process.execPath,
      '-e',
      "console.error('boom: NOTES_TOKEN is not set'); process.exit(1)",
    ]);
    assert.equal(single.code, 3);
    assert.match(
      single.stderr,
      /Server process exited with code 1\nThe server's stderr \(last lines\):\n {2}boom: NOTES_TOKEN is not set\n$/,
    );
  });
});

describe('mcpkit messages', () => {
  test('an unknown option, command, server, tool or prompt gets a "did you mean"', () => {
    const option = mcpkit(['tools', '--urll', 'http://127.0.0.1:1/mcp']);
    assert.equal(option.code, 2);
    assert.equal(
      option.stderr,
      'mcpkit: Unknown option --urll for "mcpkit tools" (did you mean "--url"?). See: mcpkit tools --help\n',
    );
    // Every command's options, the proxy's and login's too: one readable line, never Node's parser text.
    for (const [args, line] of [
      [['proxy', '--prot', '1'], 'Unknown option --prot for "mcpkit proxy" (did you mean "--port"?)'],
      [['login', '--urll', 'x'], 'Unknown option --urll for "mcpkit login" (did you mean "--url"?)'],
      [['logout', '--bogus'], 'Unknown option --bogus for "mcpkit logout".'],
    ] as const) {
      const r = mcpkit([...args]);
      assert.equal(r.code, 2);
      assert.ok(r.stderr.startsWith(`mcpkit: ${line}`), r.stderr);
    }
    const command = mcpkit(['tols']);
    assert.equal(command.code, 2);
    assert.match(command.stderr, /Unknown command "tols" \(did you mean "tools"\?\)/);
    const file = config('one.json', JSON.stringify({ mcpServers: { notes } }));
    assert.match(
      mcpkit(['tools', '--server', 'note', '--config', file]).stderr,
      /No server named "note" .*\(did you mean "notes"\?\)/,
    );
    const tool = mcpkit(['call', 'ad', 'a=1', 'b=2', ...stdio]);
    assert.equal(tool.code, 2);
    assert.match(tool.stderr, /no tool named "ad" \(did you mean "add"\?\)/);
    const prompt = mcpkit(['prompt', 'test_promt_with_arguments', ...stdio]);
    assert.equal(prompt.code, 2);
    assert.match(prompt.stderr, /\(did you mean "test_prompt_with_arguments"\?\)/);
  });

  test('exit codes are the documented ones: 2 for what the command line got wrong, 1 for a tool error, 3 for the connection', () => {
    const missingArgument = mcpkit(['prompt', 'test_prompt_with_arguments', 'arg1=x', ...stdio]);
    assert.equal(missingArgument.code, 2, missingArgument.stderr);
    assert.match(missingArgument.stderr, /needs the argument "arg2"/);
    assert.equal(mcpkit(['call', 'add', '--args', '{"a": 1,', ...stdio]).code, 2);
    assert.match(
      mcpkit(['call', 'add', '--args', '{"a": 1,', ...stdio]).stderr,
      /--args is not valid JSON: line 1, column 9: /,
    );
    const schemaRefused = mcpkit(['call', 'add', 'a=1', ...stdio]);
    assert.equal(schemaRefused.code, 1, 'the server reports arguments that do not fit as a tool error');
    assert.match(schemaRefused.stderr, /Tool add reported an error/);
    assert.equal(mcpkit(['tools', '--url', 'http://127.0.0.1:1/mcp']).code, 3);
  });

  test('--era modern against a legacy-only server says to try another era', () => {
    const r = mcpkit(['tools', '--era', 'modern', '--', process.execPath, officialEverything, 'stdio']);
    assert.equal(r.code, 3);
    assert.match(r.stderr, /does not seem to speak protocol 2026-07-28\. Try era "auto" or "legacy"\./);
  });

  test("a tool's log lines show in the modern era as in the legacy one", () => {
    for (const era of ['modern', 'legacy']) {
      const r = mcpkit(['call', 'test_tool_with_logging', '--era', era, ...stdio]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /\[info\] Tool execution started\n\[info\] Tool processing data\n/, era);
    }
  });

  test('a sampling request without a terminal is refused in one line, with no stack trace', () => {
    // Legacy: the server is told, and its tool answers with an error naming the refusal.
    const legacy = mcpkit(['call', 'test_sampling', 'prompt=hi', '--era', 'legacy', ...stdio]);
    assert.equal(legacy.code, 1, legacy.stderr);
    assert.equal(
      legacy.stdout,
      'The client answered sampling/createMessage with an error: The user cannot review this sampling request: mcpkit has no terminal (code -1)\n',
    );
    assert.equal(legacy.stderr, 'Tool test_sampling reported an error\n');
    // Modern: the question comes back to the client, which cannot answer it.
    const modern = mcpkit(['call', 'test_sampling', 'prompt=hi', '--era', 'modern', ...stdio]);
    assert.equal(modern.code, 3, modern.stderr);
    assert.equal(
      modern.stderr,
      'mcpkit: The user cannot review this sampling request: mcpkit has no terminal\n',
    );
    noStack(legacy.stderr + modern.stderr);
  });

  test('a bad token given with --header is reported as the 401, without starting a sign-in', async () => {
    const as = await TestAuthServer.start();
    const mcp = await startProtectedMcp(as);
    try {
      const r = await mcpkitAsync([
        'tools',
        '--url',
        mcp.url,
        '--header',
        'Authorization: Bearer not-a-token',
      ]);
      assert.equal(r.code, 3);
      assert.match(r.stderr, /401/);
      assert.doesNotMatch(r.stderr, /sign-in|mcpkit login/);
      assert.deepEqual(as.requests, [], 'the authorization server was not asked anything');
      assert.ok(mcp.seen.every((s) => s.authorization === 'Bearer not-a-token'));
    } finally {
      await mcp.close();
      await as.close();
    }
  });
});
