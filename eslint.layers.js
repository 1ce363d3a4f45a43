// The layer order, checked: jsonrpc <- protocol <- session <- {server, client} <- host <- cli,
// with transports, auth and stores beside them and serve (composition) above transports and stores.
// Each row names the folders a layer must not import and the files allowed to use `node:*`
// (the core runs in browsers, workers and Bun). Tests, test helpers and fixtures are exempt:
// an integration test may wire any two layers together. A new folder is one new row.
//
// Everything here is ESLint's built-in `no-restricted-imports`, one config block per folder
// (a later block replaces an earlier block's options for the same rule, so each file gets
// exactly one block: its layer's, or its layer's Node-allowed variant).

const ALL = [
  'jsonrpc',
  'protocol',
  'session',
  'server',
  'client',
  'transports',
  'stores',
  'auth',
  'host',
  'serve',
  'telemetry',
  'inspector',
  'cli',
  'demo',
  'conformance',
  'test-support',
];

const except = (...allowed) => ALL.filter((layer) => !allowed.includes(layer));

/** One row per source folder: what it may import, and which of its files may import `node:*`. */
export const LAYERS = [
  { folder: 'jsonrpc', mayImport: [] },
  { folder: 'protocol', mayImport: ['jsonrpc'] },
  { folder: 'session', mayImport: ['jsonrpc', 'protocol'] },
  // OpenTelemetry over the session's observer seam; server and client load it only when on.
  { folder: 'telemetry', mayImport: ['jsonrpc', 'protocol', 'session'] },
  { folder: 'server', mayImport: ['jsonrpc', 'protocol', 'session', 'telemetry'] },
  { folder: 'client', mayImport: ['jsonrpc', 'protocol', 'session', 'telemetry'] },
  {
    folder: 'transports',
    // Transports see the protocol only through its constants (meta keys, versions and eras,
    // and the pure principal key every transport binds what it opens to). The HTTP server is
    // the fetch core: its Node listener and serve() are the serve layer's.
    mayImport: ['jsonrpc', 'protocol'],
    protocolConstantsOnly: true,
    node: ['src/transports/stdio/**', 'src/transports/http-client/node-requester.ts'],
  },
  // OAuth sits beside the transports: it wraps the HTTP client's requester. Its Node parts
  // (file store, loopback redirect, DNS) are the separate `mcpkit/auth/node` entry, and the
  // checked network `mcpkit/auth` uses on Node (node-network.ts, behind the `node` condition).
  {
    folder: 'auth',
    mayImport: ['jsonrpc', 'protocol', 'transports'],
    node: ['src/auth/node.ts', 'src/auth/node-*.ts'],
  },
  // Shared-state backends behind the HTTP seams (sessions, events, bus, tasks); Redis is Node.
  {
    folder: 'stores',
    mayImport: ['jsonrpc', 'server', 'transports'],
    node: ['src/stores/redis/**'],
  },
  // Composition above transports and stores: serve(), the Node listener and its timeouts, the
  // Redis wiring, and the framework adapters (each a thin translation to the fetch core, with
  // the auth helpers). The Node files are named; an adapter over web Requests is not one.
  {
    folder: 'serve',
    mayImport: ['jsonrpc', 'protocol', 'transports', 'stores', 'auth', 'telemetry'],
    node: [
      'src/serve/node-*.ts',
      'src/serve/serve.ts',
      'src/serve/timeouts.ts',
      'src/serve/express.ts',
      'src/serve/fastify.ts',
    ],
  },
  { folder: 'demo', mayImport: ['jsonrpc', 'protocol', 'server', 'transports'] },
  {
    folder: 'host',
    // The gateway serves over HTTP through serve() (loaded when a gateway starts).
    mayImport: [
      'jsonrpc',
      'protocol',
      'session',
      'server',
      'client',
      'transports',
      'auth',
      'serve',
      'telemetry',
    ],
    node: ['src/host/**/node-*.ts', 'src/host/ui/terminal-ui.ts'],
  },
  // The web inspector: a host of its own over the client, and a small local server (Node).
  {
    folder: 'inspector',
    // The OAuth debugger steps through auth's own client over an HTTP transport of its own.
    mayImport: ['jsonrpc', 'protocol', 'client', 'host', 'auth', 'transports'],
    node: [
      'src/inspector/server.ts',
      'src/inspector/oauth-debugger.ts',
      'src/inspector/request-guard.ts',
      'src/inspector/static-assets.ts',
      'src/inspector/package-root.ts',
      'src/inspector/load-lint-api.ts',
    ],
  },
  {
    folder: 'conformance',
    mayImport: except('cli', 'host', 'serve', 'inspector', 'demo', 'test-support'),
    node: ['src/conformance/**'],
  },
  { folder: 'cli', mayImport: except('test-support', 'conformance'), node: ['src/cli/**'] },
];

// Redis store code may use node:* wherever it lives (its client loads only when configured).
const NODE_ANYWHERE = ['src/**/*redis*.ts'];

const TEST_FILES = [
  'src/**/*.test.ts',
  'src/**/*.test.helpers.ts',
  'src/**/test-helpers.ts',
  'src/**/fixtures/**',
];

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// A relative import reaches another top-level folder of src/ only when it climbs exactly as many
// `../` as the file sits deep (`../client/` from src/auth/server/ is still auth's own client).
function patternsFor(layer, depth, allowNode) {
  const patterns = [];
  const banned = except(layer.folder, ...layer.mayImport);
  const up = depth === 0 ? '\\./' : `(\\.\\./){${depth}}`;
  if (banned.length > 0) {
    patterns.push({
      regex: `^${up}(${banned.map(escape).join('|')})(/|$)`,
      message: `${layer.folder}/ must not import ${banned.join(', ')} (layers: jsonrpc <- protocol <- session <- {server, client} <- host <- cli).`,
    });
  }
  if (layer.protocolConstantsOnly) {
    patterns.push({
      regex: `^${up}protocol/(?!(meta-keys|versions|principal)\\.js$)`,
      message:
        'Transports may use only protocol constants (protocol/meta-keys.js, protocol/versions.js, protocol/principal.js).',
    });
  }
  if (!allowNode) {
    patterns.push({
      regex: '^node:',
      message: `node:* is not allowed in ${layer.folder}/ outside its Node files (the core runs in browsers, workers and Bun).`,
    });
  }
  return patterns;
}

function block(files, patterns) {
  return {
    files,
    ignores: TEST_FILES,
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  };
}

const DEPTHS = [1, 2, 3, 4];
const atDepth = (folder, depth) => `src/${folder}/${'*/'.repeat(depth - 1)}*.ts`;

/**
 * host/ in one direction: its parts from the bottom up, each importing (at run time) only parts
 * of the levels before it (the folders of one level do not import each other; the files of one
 * level are one part); `import type` may point anywhere. The errors sit at the bottom, the
 * Host itself above its subsystems, the gateway above the Host, the entries at the top.
 */
export const HOST_ORDER = [
  ['errors.ts'],
  ['config/', 'apps/'],
  ['llm/', 'policy/'],
  ['ui/', 'catalog/'],
  ['supervision/'],
  ['host.ts', 'host-calls.ts', 'events.ts', 'node-files.ts'],
  ['serve/'],
  ['index.ts', 'node.ts'],
];

function hostOrderBlocks() {
  const flat = HOST_ORDER.flatMap((level, i) => level.map((part) => ({ part, level: i })));
  return flat.map(({ part, level }) => {
    const folder = part.endsWith('/');
    // Folders of one level are independent of each other; the files of one level are one part.
    const banned = flat
      .filter(
        (o) => o.level > level || (o.level === level && o.part !== part && (folder || o.part.endsWith('/'))),
      )
      .map((o) => o.part);
    const up = folder ? '\\.\\./' : '\\./';
    const folders = banned.filter((b) => b.endsWith('/')).map((b) => escape(b.slice(0, -1)));
    const files = banned.filter((b) => !b.endsWith('/')).map((b) => escape(b.replace(/\.ts$/, '')));
    const message = `host/${part} may import at run time only the host/ parts below it (${HOST_ORDER.map((l) => l.join(' ')).join(' < ')}).`;
    return {
      files: [folder ? `src/host/${part}*.ts` : `src/host/${part}`],
      ignores: TEST_FILES,
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            patterns: [
              folders.length > 0 && `^${up}(${folders.join('|')})/`,
              files.length > 0 && `^${up}(${files.join('|')})\\.js$`,
            ]
              .filter(Boolean)
              .map((regex) => ({ regex, message, allowTypeImports: true, caseSensitive: true })),
          },
        ],
      },
    };
  });
}

export const layerRules = [
  // The package root: the public names, never a Node module or the host/CLI.
  block(
    ['src/index.ts', 'src/advanced.ts'],
    patternsFor(
      { folder: 'index', mayImport: except('host', 'serve', 'inspector', 'cli', 'demo') },
      0,
      false,
    ),
  ),
  ...LAYERS.flatMap((layer) =>
    DEPTHS.flatMap((depth) => [
      block([atDepth(layer.folder, depth)], patternsFor(layer, depth, false)),
      // Files matching both globs (an inner array is an AND in flat config) may use node:*.
      block(
        [...(layer.node ?? []), ...NODE_ANYWHERE].map((glob) => [glob, atDepth(layer.folder, depth)]),
        patternsFor(layer, depth, true),
      ),
    ]),
  ),
  ...hostOrderBlocks(),
];
