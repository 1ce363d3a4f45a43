// The ESLint layer rules (eslint.layers.js) reject the imports the architecture forbids and
// accept the ones it allows: each case lints a one-line snippet as if it sat at `file`.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const root = fileURLToPath(new URL('../..', import.meta.url));

let eslint: ESLint;

async function restrictedImports(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport { x };\n`, { filePath: `${root}${file}` });
  return (result?.messages ?? [])
    .filter(
      (m) => m.ruleId === 'no-restricted-imports' || m.ruleId === '@typescript-eslint/no-restricted-imports',
    )
    .map((m) => m.message);
}

const rejected: Array<[string, string, string]> = [
  ['src/jsonrpc/parse.ts', "import { x } from '../protocol/methods.js';", 'jsonrpc/ must not import'],
  ['src/protocol/methods.ts', "import { x } from '../session/session.js';", 'protocol/ must not import'],
  ['src/session/session.ts', "import { x } from '../server/server.js';", 'session/ must not import'],
  ['src/server/tools.ts', "import { x } from '../client/client.js';", 'server/ must not import'],
  ['src/client/client.ts', "import { x } from '../server/server.js';", 'client/ must not import'],
  ['src/client/client.ts', "import { x } from '../host/host.js';", 'client/ must not import'],
  ['src/telemetry/telemetry.ts', "import { x } from '../server/server.js';", 'telemetry/ must not import'],
  ['src/telemetry/telemetry.ts', "import { x } from '../client/client.js';", 'telemetry/ must not import'],
  ['src/session/session.ts', "import { x } from '../telemetry/telemetry.js';", 'session/ must not import'],
  [
    'src/telemetry/telemetry.ts',
    "import { x } from 'node:async_hooks';",
    'node:* is not allowed in telemetry/',
  ],
  ['src/host/host.ts', "import { x } from '../cli/main.js';", 'host/ must not import'],
  [
    'src/transports/memory/memory-transport.ts',
    "import { x } from '../../session/session.js';",
    'transports/ must not import',
  ],
  [
    'src/transports/http-server/mcp-http-handler.ts',
    "import { x } from '../../protocol/methods.js';",
    'only protocol constants',
  ],
  ['src/session/session.ts', "import { x } from 'node:events';", 'node:* is not allowed in session/'],
  ['src/server/server.ts', "import { x } from 'node:crypto';", 'node:* is not allowed in server/'],
  ['src/transports/http-server/respond.ts', "import { x } from 'node:http';", 'node:* is not allowed'],
  ['src/host/catalog/catalog.ts', "import { x } from 'node:fs';", 'node:* is not allowed in host/'],
  ['src/index.ts', "export { x } from './cli/main.js';", 'index/ must not import'],
  [
    'src/transports/http-server/respond.ts',
    "import { x } from '../../stores/redis/index.js';",
    'transports/ must not',
  ],
  ['src/stores/redis/redis-bus.ts', "import { x } from '../../client/client.js';", 'stores/ must not import'],
  // The fetch core loads nothing of Node; its Node listener is the serve layer's.
  ['src/transports/http-server/index.ts', "import { x } from 'node:http';", 'node:* is not allowed'],
  [
    'src/transports/http-server/fetch-adapter.ts',
    "import { x } from '../../serve/index.js';",
    'transports/ must not import',
  ],
  ['src/serve/serve.ts', "import { x } from '../host/host.js';", 'serve/ must not import'],
  ['src/serve/hono.ts', "import { x } from 'node:http';", 'node:* is not allowed in serve/'],
  ['src/host/host.ts', "import { x } from '../demo/notes-server.js';", 'host/ must not import'],
  ['src/inspector/inspector-host.ts', "import { x } from '../cli/main.js';", 'inspector/ must not import'],
  ['src/inspector/inspector-host.ts', "import { x } from 'node:fs';", 'node:* is not allowed in inspector/'],
  ['src/index.ts', "export { x } from './serve/index.js';", 'index/ must not import'],
  // host/ in one direction: errors < config < llm, policy < ui, catalog < supervision < host.
  ['src/host/config/config-llm.ts', "import { x } from '../llm/provider-registry.js';", 'host/config/ may'],
  ['src/host/llm/agent.ts', "import { x } from '../policy/audit.js';", 'host/llm/ may import'],
  ['src/host/policy/decide.ts', "import { x } from '../host.js';", 'host/policy/ may import'],
  ['src/host/errors.ts', "import { x } from './config/config-types.js';", 'host/errors.ts may import'],
  ['src/host/host.ts', "import { x } from './serve/gateway.js';", 'host/host.ts may import'],
];

const accepted: Array<[string, string]> = [
  ['src/server/tools.ts', "import { x } from '../session/session.js';"],
  ['src/telemetry/telemetry.ts', "import { x } from '../session/observer.js';"],
  ['src/server/server.ts', "import { x } from '../telemetry/telemetry.js';"],
  ['src/client/client.ts', "import { x } from '../telemetry/telemetry.js';"],
  ['src/host/host.ts', "import { x } from '../telemetry/telemetry.js';"],
  ['src/client/client.ts', "import { x } from '../protocol/methods.js';"],
  ['src/transports/http-server/mcp-http-handler.ts', "import { x } from '../../protocol/meta-keys.js';"],
  ['src/transports/stdio/stdio-server-transport.ts', "import { x } from 'node:stream';"],
  ['src/serve/node-listener.ts', "import { x } from 'node:http';"],
  ['src/serve/serve.ts', "import { x } from 'node:http';"],
  ['src/host/node-files.ts', "import { x } from 'node:fs';"],
  ['src/cli/main.ts', "import { x } from 'node:util';"],
  // Redis store code may use node:* wherever it lives.
  ['src/transports/http-server/redis-event-store.ts', "import { x } from 'node:net';"],
  // auth/server/ importing auth/client/ stays inside auth: it is not the top-level client/.
  ['src/auth/server/introspection-verifier.ts', "import { x } from '../client/client-auth.js';"],
  // serve sits above transports and stores: serve({ redis }) composes the Redis stores.
  ['src/serve/redis-wiring.ts', "import type { x } from '../stores/redis/connect-redis.js';"],
  ['src/serve/node-listener.ts', "import { x } from '../transports/http-server/index.js';"],
  ['src/serve/express.ts', "import { x } from '../auth/server/bearer-auth.js';"],
  ['src/host/serve/gateway.ts', "import { x } from '../../serve/index.js';"],
  ['src/inspector/server.ts', "import { x } from 'node:http';"],
  ['src/inspector/inspector-host.ts', "import { x } from '../host/index.js';"],
  ['src/cli/commands/inspect.ts', "import { x } from '../../inspector/server.js';"],
  ['src/host/config/config-types.ts', "import type { x } from '../llm/provider-registry.js';"],
  ['src/host/llm/agent.ts', "import { x } from '../errors.js';"],
  ['src/host/supervision/server-requests.ts', "import { x } from '../ui/form-schema.js';"],
  ['src/host/host.ts', "import { x } from './host-calls.js';"],
  ['src/host/serve/bridge.ts', "import { x } from '../host.js';"],
  // Tests may wire any layers together.
  ['src/server/tools.test.ts', "import { x } from '../client/client.js';"],
];

describe('ESLint layer rules', () => {
  before(() => {
    eslint = new ESLint({ cwd: root });
  });

  for (const [file, source, fragment] of rejected) {
    it(`rejects ${source} in ${file}`, async () => {
      const messages = await restrictedImports(file, source);
      assert.ok(
        messages.some((m) => m.includes(fragment)),
        `expected a no-restricted-imports error containing ${JSON.stringify(fragment)}, got ${JSON.stringify(messages)}`,
      );
    });
  }

  for (const [file, source] of accepted) {
    it(`accepts ${source} in ${file}`, async () => {
      assert.deepEqual(await restrictedImports(file, source), []);
    });
  }
});
