import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../errors.js';
import { parseHostConfig } from './config-parse.js';
import { loadHostConfig } from '../node-files.js';
import { tempDir } from '../../test-support/host-harness.js';

function issuesOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ConfigError, String(e));
    return e.message.split('\n');
  }
  assert.fail('expected a ConfigError');
}

describe('config: the shapes applications write', () => {
  test('Claude Desktop / Cursor mcpServers: stdio and HTTP entries, with ${ENV} expansion', () => {
    const config = parseHostConfig(
      {
        mcpServers: {
          files: {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-filesystem', '${HOME}/work'],
            env: { TOKEN: '${env:TOKEN}' },
          },
          remote: { url: 'https://mcp.example.com/mcp', headers: { authorization: 'Bearer ${TOKEN}' } },
          legacy: { type: 'sse', url: 'http://127.0.0.1:9000/sse' },
          off: { command: 'x', disabled: true },
        },
      },
      { env: { HOME: '/home/me', TOKEN: 's3cret' } },
    );
    const files = config.servers.files!;
    assert.equal(files.transport, 'stdio');
    assert.ok(files.transport === 'stdio');
    assert.deepEqual(files.args, ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/work']);
    assert.deepEqual(files.env, { TOKEN: 's3cret' });
    const remote = config.servers.remote!;
    assert.ok(remote.transport === 'http');
    assert.equal(remote.headers.authorization, 'Bearer s3cret');
    assert.equal(config.servers.legacy!.transport, 'sse');
    assert.equal(config.servers.off!.disabled, true);
    assert.equal(config.defaultDecision, 'ask');
    assert.deepEqual(config.warnings, []);
  });

  test("VS Code's servers shape with ${input:...}, ${workspaceFolder} and defaults", () => {
    const config = parseHostConfig(
      {
        inputs: [{ type: 'promptString', id: 'api-key', password: true }],
        servers: {
          gh: { type: 'http', url: 'https://api.example.com/mcp', headers: { 'x-key': '${input:api-key}' } },
          local: {
            type: 'stdio',
            command: 'node',
            args: ['${workspaceFolder}/server.js', '${MISSING:-fallback}'],
          },
        },
      },
      { inputs: { 'api-key': 'k-123' }, variables: { workspaceFolder: '/repo' } },
    );
    const gh = config.servers.gh!;
    assert.ok(gh.transport === 'http');
    assert.equal(gh.headers['x-key'], 'k-123');
    const local = config.servers.local!;
    assert.ok(local.transport === 'stdio');
    assert.deepEqual(local.args, ['/repo/server.js', 'fallback']);
  });

  test("mcpkit's per-server fields: era, timeouts, roots, policy, rate limit, restart, autoApprove", () => {
    const config = parseHostConfig(
      {
        mcpkit: { roots: ['/work'], defaultPolicy: 'deny' },
        mcpServers: {
          fs: {
            command: 'fs-server',
            era: 'legacy',
            timeouts: { connectMs: 2000, callMs: 5000 },
            roots: ['/work/a', 'file:///work/b/../c'],
            policy: { default: 'ask', tools: { write_file: 'deny' } },
            autoApprove: ['read_file'],
            rateLimit: { calls: 5, perMs: 1000 },
            restart: { maxRestarts: 2 },
          },
        },
      },
      {},
    );
    const fs = config.servers.fs!;
    assert.equal(fs.era, 'legacy');
    assert.deepEqual(fs.timeouts, { connectMs: 2000, callMs: 5000, probeMs: 3000 });
    assert.deepEqual(fs.roots, ['/work/a', '/work/c']);
    assert.deepEqual(fs.policy, { default: 'ask', tools: { write_file: 'deny', read_file: 'allow' } });
    assert.deepEqual(fs.rateLimit, { calls: 5, perMs: 1000 });
    assert.equal(fs.restart.maxRestarts, 2);
    assert.equal(config.defaultDecision, 'deny');
    assert.deepEqual(config.roots, ['/work']);
  });
});

describe('config: precise messages for broken input', () => {
  test('every problem is reported with file, server, field and what was expected', () => {
    const lines = issuesOf(() =>
      parseHostConfig(
        {
          mcpServers: {
            a: { command: 'node', args: ['ok', 3] },
            b: { url: 'ftp://example.com' },
            c: { command: '' },
            d: { command: 'x', env: { PORT: 8080 }, era: 'future' },
            e: { type: 'websocket', url: 'ws://x' },
          },
        },
        { file: 'mcp.json' },
      ),
    );
    assert.equal(lines[0], 'Invalid MCP config (6 problems):');
    assert.ok(
      lines.includes('  - mcp.json: server "a": field "args[1]": expected a string, got the number 3'),
      lines.join('\n'),
    );
    assert.ok(
      lines.includes(
        '  - mcp.json: server "b": field "url": expected an http:// or https:// URL, got the string "ftp://example.com"',
      ),
    );
    assert.ok(
      lines.includes(
        '  - mcp.json: server "c": field "command": expected a non-empty string, got the string ""',
      ),
    );
    assert.ok(
      lines.includes('  - mcp.json: server "d": field "env.PORT": expected a string, got the number 8080'),
    );
    assert.ok(
      lines.includes(
        '  - mcp.json: server "d": field "era": expected one of "auto", "legacy", "modern", got the string "future"',
      ),
    );
    assert.ok(
      lines.some((l) =>
        l.startsWith('  - mcp.json: server "e": field "type": expected one of "stdio", "http"'),
      ),
    );
  });

  test('a missing variable names the variable, the server and the field', () => {
    const [line] = issuesOf(() =>
      parseHostConfig(
        { mcpServers: { gh: { url: 'https://x/mcp', headers: { auth: 'Bearer ${GH_TOKEN}' } } } },
        { file: 'c.json', env: {} },
      ),
    );
    assert.equal(
      line,
      'Invalid MCP config: c.json: server "gh": field "headers.auth": expected the environment variable GH_TOKEN to be set (it is referenced as ${GH_TOKEN})',
    );
  });

  test('a typo becomes a missing command plus a "did you mean" warning; valid typos load with a warning', () => {
    const [line] = issuesOf(() => parseHostConfig({ mcpServers: { s: { comand: 'node' } } }));
    assert.equal(
      line,
      'Invalid MCP config: server "s": field "command": expected a command to run (stdio), or a "url" (HTTP) (found "comand": did you mean "command"?)',
    );
    const config = parseHostConfig({
      mcpServers: { s: { command: 'node', arg: ['x'] } },
      globalShortcut: 'Ctrl+Space',
    });
    assert.deepEqual(config.warnings, [
      'unknown field "globalShortcut" ignored',
      'server "s": unknown field "arg" ignored (did you mean "args"?)',
    ]);
  });

  test('not JSON, not an object, no servers, roots outside the host roots, credentials in a URL', () => {
    assert.match(
      issuesOf(() => parseHostConfig('{ "mcpServers": ', { file: 'x.json' }))[0]!,
      /^Invalid MCP config: x\.json: expected valid JSON, got /,
    );
    assert.equal(
      issuesOf(() => parseHostConfig([]))[0],
      'Invalid MCP config: expected a JSON object, got an array (0 items)',
    );
    assert.equal(
      issuesOf(() => parseHostConfig({}))[0],
      'Invalid MCP config: field "mcpServers": expected an object of servers (or VS Code\'s "servers")',
    );
    const [root] = issuesOf(() =>
      parseHostConfig({ mcpkit: { roots: ['/work'] }, mcpServers: { s: { command: 'x', roots: ['/etc'] } } }),
    );
    assert.equal(
      root,
      'Invalid MCP config: server "s": field "roots[0]": expected a directory inside the host\'s roots (/work), got the string "/etc"',
    );
    const [rel] = issuesOf(() =>
      parseHostConfig({ mcpServers: { s: { command: 'x', roots: ['relative/dir'] } } }),
    );
    assert.match(
      rel!,
      /field "roots\[0\]": expected an absolute path or file:\/\/ URI \(relative\/dir is not absolute/,
    );
    const [cred] = issuesOf(() =>
      parseHostConfig({ mcpServers: { s: { url: 'https://user:pw@example.com/mcp' } } }),
    );
    assert.equal(
      cred,
      'Invalid MCP config: server "s": field "url": expected a URL without credentials in it (put them in "headers"), got https://…@example.com',
    );
  });

  test('the llm section: providers, models, and references between them', () => {
    const config = parseHostConfig(
      {
        mcpServers: {},
        mcpkit: {
          llm: {
            providers: {
              local: { type: 'openai', baseURL: 'http://127.0.0.1:8080/v1', apiKey: '${KEY:-none}' },
            },
            models: [
              {
                id: 'qwen',
                provider: 'local',
                aliases: ['gpt-4o-mini'],
                cost: 0.1,
                speed: 0.9,
                intelligence: 0.4,
              },
            ],
            defaultModel: 'qwen',
          },
        },
      },
      {},
    );
    assert.equal(config.llm.providers.local!.apiKey, 'none');
    assert.equal(config.llm.models[0]!.aliases[0], 'gpt-4o-mini');
    const lines = issuesOf(() =>
      parseHostConfig({
        mcpServers: {},
        mcpkit: {
          llm: { providers: {}, models: [{ id: 'm', provider: 'nope', cost: 2 }], defaultModel: 'zzz' },
        },
      }),
    );
    assert.ok(
      lines.includes(
        '  - field "mcpkit.llm.models[0].cost": expected a number from 0 to 1, got the number 2',
      ),
      lines.join('\n'),
    );
    assert.ok(
      lines.includes(
        '  - field "mcpkit.llm.models[0].provider": expected the name of a configured provider (none are configured), got the string "nope"',
      ),
    );
    assert.ok(
      lines.includes(
        '  - field "mcpkit.llm.defaultModel": expected the id of a configured model, got the string "zzz"',
      ),
    );
  });

  test('loadHostConfig names the file, whether it is missing or broken', async () => {
    const dir = tempDir();
    await assert.rejects(loadHostConfig(join(dir, 'none.json')), (e: Error) => {
      assert.equal(
        e.message,
        `Invalid MCP config: ${join(dir, 'none.json')}: expected a readable config file, got no such file`,
      );
      return true;
    });
    const path = join(dir, 'mcp.json');
    writeFileSync(path, JSON.stringify({ mcpServers: { s: { command: 'node', cwd: 'relative' } } }));
    await assert.rejects(
      loadHostConfig(path),
      /mcp\.json: server "s": field "cwd": expected an absolute directory/,
    );
  });
});
