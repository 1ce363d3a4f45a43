import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { traceModules } from '../test-support/loaded-modules.js';

// Every CLI call is a process start, so a command loads only what it uses: the other
// commands, the HTTP client (undici), auth (jose, oauth4webapi) and the host stay unloaded.
const main = fileURLToPath(new URL('./main.js', import.meta.url));
const stdioServer = fileURLToPath(new URL('../demo/everything-stdio.js', import.meta.url));

/** Runs the CLI under the module trace; returns its exit code, stdout and the loaded URLs. */
function loaded(
  args: string[],
  input = '',
  env: Record<string, string> = {},
): { code: number | null; stdout: string; modules: string[] } {
  const r = traceModules([main, ...args], {
    cwd: process.cwd(),
    input,
    env: { NO_COLOR: '1', ...env },
    timeoutMs: 30_000,
  });
  return { code: r.status, stdout: r.stdout, modules: r.modules };
}

const heavy = [
  /node_modules\/undici\//,
  /node_modules\/jose\//,
  /node_modules\/oauth4webapi\//,
  /\/dist\/host\//,
];
const unwanted = (modules: string[], extra: RegExp[] = []): string[] =>
  modules.filter((m) => [...heavy, ...extra].some((re) => re.test(m)));

describe('CLI start-up loads only what the command uses', () => {
  test('the trace sees what a command does load (the check can fail)', () => {
    const r = loaded(['tools', '--json', '--', process.execPath, stdioServer]);
    assert.equal(r.code, 0);
    assert.ok(r.modules.some((m) => m.endsWith('/dist/cli/commands/list.js')));
    assert.ok(r.modules.some((m) => m.endsWith('/dist/transports/stdio/index.js')));
  });

  test('--help loads no command module and no dependency', () => {
    const r = loaded(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /demo-server/);
    assert.deepEqual(
      unwanted(r.modules, [/\/dist\/cli\/commands\//, /\/dist\/client\//, /node_modules\//]),
      [],
    );
  });

  test('help for one command loads that command only', () => {
    const r = loaded(['help', 'call']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /Usage: mcpkit call/);
    const commands = r.modules.filter((m) => m.includes('/dist/cli/commands/'));
    assert.deepEqual(commands.map((m) => m.slice(m.lastIndexOf('/') + 1)).sort(), [
      'call.js',
      'print-content.js',
    ]);
    assert.deepEqual(unwanted(r.modules), []);
  });

  test('tools and call against a stdio server load neither undici, auth nor the host', () => {
    const list = loaded(['tools', '--json', '--', process.execPath, stdioServer]);
    assert.ok((JSON.parse(list.stdout) as unknown[]).length > 0);
    assert.deepEqual(unwanted(list.modules), []);
    const call = loaded(['call', 'add', 'a=2', 'b=40', '--', process.execPath, stdioServer]);
    assert.equal(call.stdout.trim(), '42');
    assert.deepEqual(unwanted(call.modules), []);
  });

  test('demo-server --stdio loads no HTTP server, client, auth or host', () => {
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    const r = loaded(['demo-server', '--stdio'], `${init}\n`);
    assert.match(r.stdout, /"serverInfo"/);
    assert.deepEqual(unwanted(r.modules, [/\/dist\/transports\/http-server\//, /\/dist\/client\//]), []);
  });

  test('OpenTelemetry loads only when the OTEL_* environment asks for it', () => {
    const otel = /node_modules\/@opentelemetry\/|\/dist\/(cli\/otel-env|telemetry\/)/;
    const args = ['call', 'add', 'a=2', 'b=40', '--', process.execPath, stdioServer];
    const plain = loaded(args, '', { OTEL_SDK_DISABLED: 'false' });
    assert.equal(plain.stdout.trim(), '42');
    assert.deepEqual(
      plain.modules.filter((m) => otel.test(m)),
      [],
    );
    const disabled = loaded(args, '', { OTEL_TRACES_EXPORTER: 'console', OTEL_SDK_DISABLED: 'true' });
    assert.deepEqual(
      disabled.modules.filter((m) => otel.test(m)),
      [],
    );
    // The check can fail: asked for, the SDK and mcpkit's telemetry are loaded.
    const asked = loaded(args, '', { OTEL_TRACES_EXPORTER: 'console' });
    assert.equal(asked.stdout.trim(), '42');
    assert.ok(asked.modules.some((m) => m.endsWith('/dist/cli/otel-env.js')));
    assert.ok(asked.modules.some((m) => m.includes('/node_modules/@opentelemetry/sdk-trace-base/')));
    const help = loaded(['--help'], '', { OTEL_TRACES_EXPORTER: 'console' });
    assert.deepEqual(
      help.modules.filter((m) => otel.test(m)),
      [],
    );
  });
});
