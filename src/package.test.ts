// What `npm publish` would ship and promise: the licence, the changelog, provenance, the
// optional peers a server never installs, and a tarball of bundles and types only.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));

interface PackageJson {
  name: string;
  version: string;
  license: string;
  publishConfig?: { access?: string; provenance?: boolean };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson;

/**
 * The packages only some users need: the LLM SDKs and ioredis, loaded on first use through
 * importOptionalPeer, and the web frameworks the adapters (mcpkit/express, /fastify, /hono,
 * /next) are mounted in, which only their types name.
 */
const OPTIONAL_PEERS = [
  '@anthropic-ai/sdk',
  '@opentelemetry/api',
  '@opentelemetry/context-async-hooks',
  '@opentelemetry/core',
  '@opentelemetry/exporter-metrics-otlp-http',
  '@opentelemetry/exporter-metrics-otlp-proto',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/exporter-trace-otlp-proto',
  '@opentelemetry/resources',
  '@opentelemetry/sdk-metrics',
  '@opentelemetry/sdk-trace-base',
  'express',
  'fastify',
  'hono',
  'ioredis',
  'next',
  'openai',
];

describe('the published package', () => {
  test('is MIT licensed, with the licence text beside it', () => {
    assert.equal(pkg.license, 'MIT');
    assert.match(readFileSync(join(root, 'LICENSE'), 'utf8'), /^MIT License\n\nCopyright \(c\) \d{4} /);
  });

  test('is published publicly with provenance', () => {
    assert.deepEqual(pkg.publishConfig, { access: 'public', provenance: true });
  });

  test("the changelog has an entry for package.json's version", () => {
    const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
    assert.ok(changelog.includes(`\n## ${pkg.version} `), `no "## ${pkg.version}" heading in CHANGELOG.md`);
  });

  test('the LLM SDKs, ioredis and the web frameworks are optional peers (and dev dependencies for the tests), never installed with it', () => {
    assert.deepEqual(Object.keys(pkg.peerDependencies ?? {}).sort(), OPTIONAL_PEERS);
    for (const name of OPTIONAL_PEERS) {
      assert.equal(pkg.peerDependenciesMeta?.[name]?.optional, true, name);
      // The tests run against one version inside the range users may have.
      assert.ok(pkg.devDependencies?.[name], `${name} is not a dev dependency`);
      assert.equal(pkg.dependencies?.[name], undefined, name);
      assert.equal(pkg.optionalDependencies?.[name], undefined, name);
    }
  });

  test('the tarball holds the bundles, the types, the inspector and the docs files, and no tests, unbundled modules or unreachable types', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [packed] = JSON.parse(out) as Array<{ files: Array<{ path: string }> }>;
    const files = packed!.files.map((f) => f.path);
    for (const wanted of [
      'LICENSE',
      'README.md',
      'CHANGELOG.md',
      'package.json',
      'dist/bundle/index.js',
      'dist/bundle/cli.js',
      'dist/index.d.ts',
    ])
      assert.ok(files.includes(wanted), `${wanted} is not packed`);
    assert.ok(
      files.some((f) => f.startsWith('dist/inspector-ui/')),
      'the inspector UI is not packed',
    );
    const stray = files.filter(
      (f) =>
        /\.test\.|test-helpers|test-support\/|\/fixtures\//.test(f) ||
        // Types no entry point reaches: the CLI's, the demo servers', the inspector's.
        /^dist\/(cli|conformance|demo|inspector)\//.test(f) ||
        (f.endsWith('.js') && !f.startsWith('dist/bundle/') && !f.startsWith('dist/inspector-ui/')),
    );
    assert.deepEqual(stray, []);
  });
});
