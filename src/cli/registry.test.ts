import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { fixtureText, serverJsonProblems } from '../test-support/card-schemas.js';
import { runCli } from '../test-support/cli-process.js';
import { SERVER_SCHEMA_2025_12_11 } from '../host/registry/server-schema.js';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function project(pkg: Record<string, unknown> | undefined, serverJson?: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-registry-'));
  dirs.push(dir);
  if (pkg) writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
  if (serverJson !== undefined) writeFileSync(join(dir, 'server.json'), JSON.stringify(serverJson));
  return dir;
}

const pkg = {
  name: '@alice/weather-mcp',
  version: '1.2.3',
  mcpName: 'io.github.alice/weather',
  description: 'Weather forecasts for any city.',
  repository: { type: 'git', url: 'git+https://github.com/alice/weather-mcp.git' },
  homepage: 'https://alice.example/weather',
  bin: { 'weather-mcp': 'dist/index.js' },
};

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

describe('mcpkit server-json', () => {
  it('the compiled-in schema is the vendored one', () => {
    assert.deepEqual(
      SERVER_SCHEMA_2025_12_11,
      JSON.parse(fixtureText('registry', '2025-12-11', 'server.schema.json')),
    );
  });

  it('writes a server.json from package.json that the vendored schema accepts', async () => {
    const dir = project(pkg);
    const r = await runCli([
      'server-json',
      '--dir',
      dir,
      '--secret',
      'WEATHER_KEY=Your API key',
      '--env',
      'UNITS',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const doc = readJson(join(dir, 'server.json'));
    assert.deepEqual(serverJsonProblems(doc), []);
    assert.deepEqual(doc, {
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
      name: 'io.github.alice/weather',
      description: 'Weather forecasts for any city.',
      websiteUrl: 'https://alice.example/weather',
      repository: { url: 'https://github.com/alice/weather-mcp', source: 'github' },
      version: '1.2.3',
      packages: [
        {
          registryType: 'npm',
          registryBaseUrl: 'https://registry.npmjs.org',
          identifier: '@alice/weather-mcp',
          version: '1.2.3',
          runtimeHint: 'npx',
          transport: { type: 'stdio' },
          environmentVariables: [
            { name: 'UNITS', isRequired: true },
            { name: 'WEATHER_KEY', description: 'Your API key', isRequired: true, isSecret: true },
          ],
        },
      ],
    });
  });

  it("takes title, description and icons from the running server's serverInfo", async () => {
    const dir = project({ ...pkg, description: undefined });
    const serverModule = fileURLToPath(new URL('../server/server.js', import.meta.url));
    const stdio = fileURLToPath(new URL('../transports/stdio/index.js', import.meta.url));
    writeFileSync(
      join(dir, 'server.mjs'),
      `import { McpServer } from ${JSON.stringify(serverModule)};
import { StdioServerTransport } from ${JSON.stringify(stdio)};
const server = new McpServer({ name: 'weather', version: '1.2.3', title: 'Weather', description: 'Forecasts from the server.',
  icons: [{ src: 'https://alice.example/icon.png', mimeType: 'image/png' }] });
await server.connect(new StdioServerTransport());`,
    );
    const r = await runCli([
      'server-json',
      '--dir',
      dir,
      '-o',
      '-',
      '--',
      process.execPath,
      join(dir, 'server.mjs'),
    ]);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    assert.deepEqual(serverJsonProblems(doc), []);
    assert.equal(doc.title, 'Weather');
    assert.equal(doc.description, 'Forecasts from the server.');
    assert.deepEqual(doc.icons, [{ src: 'https://alice.example/icon.png', mimeType: 'image/png' }]);
  });

  it('writes a remote-only server.json', async () => {
    const dir = project(undefined);
    const r = await runCli([
      'server-json',
      '--dir',
      dir,
      '--remote-only',
      '--remote',
      'https://mcp.example.com/mcp',
      '--name',
      'com.example/weather',
      '--description',
      'Weather.',
      '-o',
      '-',
    ]);
    // No version anywhere: the schema names the missing field, and nothing is written.
    assert.equal(r.code, 2);
    assert.match(r.stderr, /error \/ \(schema\): version is required/);
    const ok = await runCli([
      'server-json',
      '--dir',
      dir,
      '--remote',
      'https://mcp.example.com/sse',
      '--transport',
      'sse',
      '--name',
      'com.example/weather',
      '--description',
      'Weather.',
      '--version',
      '2.0.0',
    ]);
    assert.equal(ok.code, 0, ok.stderr);
    const doc = readJson(join(dir, 'server.json'));
    assert.deepEqual(serverJsonProblems(doc), []);
    assert.deepEqual(doc.remotes, [{ type: 'sse', url: 'https://mcp.example.com/sse' }]);
    assert.equal(doc.packages, undefined);
  });

  it('names the field of every registry rule it breaks, and writes nothing', async () => {
    const dir = project({ ...pkg, mcpName: 'io.github.bob/weather', version: '^1.2.0' });
    const r = await runCli([
      'server-json',
      '--dir',
      dir,
      '--name',
      'io.github.bob/weather-two',
      '--remote',
      'http://127.0.0.1:3000/mcp',
    ]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /error \/version \(registry\): "\^1\.2\.0" is a version range/);
    assert.match(r.stderr, /error \/packages\/0\/version \(registry\)/);
    assert.match(
      r.stderr,
      /error \/packages\/0\/identifier \(registry\): package.json's mcpName is "io.github.bob\/weather"/,
    );
    assert.match(r.stderr, /warning \/repository\/url \(registry\): .*belongs to alice/);
    assert.match(r.stderr, /error \/remotes\/0\/url \(registry\): 127\.0\.0\.1 is not publicly reachable/);
    assert.throws(() => readFileSync(join(dir, 'server.json')));
  });

  it('--check: latest, _meta keys, schema errors by pointer', async () => {
    const base = {
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
      name: 'io.github.alice/weather',
      description: 'Weather.',
      version: '1.0.0',
    };
    const ok = project(undefined, {
      ...base,
      _meta: { 'io.modelcontextprotocol.registry/publisher-provided': { tool: 'x' } },
    });
    assert.equal((await runCli(['server-json', '--check', join(ok, 'server.json')])).code, 0);
    const bad = project(undefined, {
      ...base,
      version: 'latest',
      _meta: {
        'io.modelcontextprotocol.registry/official': { status: 'active' },
        'com.example': { x: 1 },
        'io.modelcontextprotocol.registry/publisher-provided': { pad: 'x'.repeat(5000) },
      },
    });
    const r = await runCli(['server-json', '--check', join(bad, 'server.json')]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /error \/version \(registry\): must be a specific version, not "latest"/);
    assert.match(r.stderr, /error \/_meta\/io\.modelcontextprotocol\.registry~1official \(registry\)/);
    assert.match(r.stderr, /warning \/_meta\/com\.example \(registry\): is dropped/);
    assert.match(r.stderr, /publisher-provided \(registry\): is \d+ bytes of JSON; the limit is 4096/);
    const schema = project(undefined, { ...base, name: 'no-slash', packages: [{ registryType: 'npm' }] });
    const s = await runCli(['server-json', '--check', join(schema, 'server.json')]);
    assert.equal(s.code, 2);
    assert.match(s.stderr, /error \/name \(schema\): must match pattern/);
    assert.match(s.stderr, /error \/packages\/0 \(schema\): identifier is required/);
  });
});

/** A registry on 127.0.0.1 that checks each request as the API reference describes it. */
async function fakeRegistry() {
  const requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const send = (status: number, doc: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
      if (req.method !== 'POST' || req.headers['content-type'] !== 'application/json')
        return send(400, { error: 'bad request shape' });
      if (req.url === '/v0.1/auth/github-at') {
        const b = JSON.parse(body) as Record<string, unknown>;
        if (Object.keys(b).join() !== 'github_token' || b.github_token !== 'gh-secret')
          return send(401, { title: 'Unauthorized', detail: 'bad github token' });
        return send(200, { registry_token: 'registry-jwt', expires_at: 1_900_000_000 });
      }
      if (req.url === '/v0.1/publish') {
        if (req.headers.authorization !== 'Bearer registry-jwt')
          return send(401, { error: 'Invalid or expired Registry JWT token' });
        const doc = JSON.parse(body) as { name: string; version: string };
        if (doc.name !== 'io.github.alice/weather')
          return send(403, { error: 'You do not have permission to publish this server' });
        return send(200, {
          server: doc,
          _meta: { 'io.modelcontextprotocol.registry/official': { status: 'active', isLatest: true } },
        });
      }
      send(404, { error: 'not found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('mcpkit publish', () => {
  const doc = {
    $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
    name: 'io.github.alice/weather',
    description: 'Weather.',
    version: '1.0.0',
    remotes: [{ type: 'streamable-http', url: 'https://mcp.example.com/mcp' }],
  };
  const env = { ...process.env, GITHUB_TOKEN: '', MCP_REGISTRY_TOKEN: '' };

  it('exchanges a GitHub token, then POSTs server.json with the registry token', async () => {
    const registry = await fakeRegistry();
    try {
      const dir = project(undefined, doc);
      const r = await runCli(
        ['publish', join(dir, 'server.json'), '--registry', registry.url, '--github-token', 'gh-secret'],
        { env },
      );
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /Published io\.github\.alice\/weather 1\.0\.0/);
      assert.deepEqual(
        registry.requests.map((q) => `${q.method} ${q.url}`),
        ['POST /v0.1/auth/github-at', 'POST /v0.1/publish'],
      );
      assert.deepEqual(JSON.parse(registry.requests[1]!.body), doc);
    } finally {
      await registry.close();
    }
  });

  it("reports the registry's refusal and exits 3", async () => {
    const registry = await fakeRegistry();
    try {
      const dir = project(undefined, { ...doc, name: 'io.github.mallory/weather' });
      const r = await runCli(
        ['publish', join(dir, 'server.json'), '--registry', registry.url, '--token', 'registry-jwt'],
        {
          env,
        },
      );
      assert.equal(r.code, 3);
      assert.match(r.stderr, /Publishing failed: HTTP 403: You do not have permission/);
    } finally {
      await registry.close();
    }
  });

  it('--dry-run prints the exact requests, credentials redacted, and sends nothing', async () => {
    const registry = await fakeRegistry();
    try {
      const dir = project(undefined, doc);
      const r = await runCli(
        [
          'publish',
          join(dir, 'server.json'),
          '--registry',
          registry.url,
          '--github-token',
          'gh-secret',
          '--dry-run',
        ],
        { env },
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal(registry.requests.length, 0);
      assert.ok(!r.stdout.includes('gh-secret'));
      assert.match(r.stdout, new RegExp(`^POST ${registry.url}/v0.1/auth/github-at\n`));
      assert.match(r.stdout, /\{"github_token":"<redacted>"\}/);
      assert.match(r.stdout, new RegExp(`POST ${registry.url}/v0.1/publish\n`));
      assert.match(r.stdout, /authorization: Bearer <redacted>/);
      assert.ok(r.stdout.trimEnd().endsWith(JSON.stringify(doc)));
    } finally {
      await registry.close();
    }
  });

  it('DNS sign-in: the timestamp is signed with the Ed25519 key the TXT record names', async () => {
    const { createPublicKey, verify } = await import('node:crypto');
    const seed = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
    const { authRequest } = await import('./registry/publish-client.js');
    const req = authRequest('https://registry.example', {
      kind: 'dns',
      domain: 'example.com',
      privateKeyHex: seed,
    });
    assert.equal(req?.url, 'https://registry.example/v0.1/auth/dns');
    const body = JSON.parse(req!.body) as { domain: string; timestamp: string; signed_timestamp: string };
    assert.equal(body.domain, 'example.com');
    assert.match(body.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // RFC 8032 test vector 1: this seed's public key.
    const pub = createPublicKey({
      key: Buffer.concat([
        Buffer.from('302a300506032b6570032100', 'hex'),
        Buffer.from('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', 'hex'),
      ]),
      format: 'der',
      type: 'spki',
    });
    assert.ok(verify(null, Buffer.from(body.timestamp), pub, Buffer.from(body.signed_timestamp, 'hex')));
  });

  it('refuses to publish a server.json with errors, before any request', async () => {
    const registry = await fakeRegistry();
    try {
      const dir = project(undefined, { ...doc, version: '1.x' });
      const r = await runCli(
        ['publish', join(dir, 'server.json'), '--registry', registry.url, '--token', 't'],
        { env },
      );
      assert.equal(r.code, 2);
      assert.match(r.stderr, /error \/version \(registry\)/);
      assert.equal(registry.requests.length, 0);
    } finally {
      await registry.close();
    }
  });
});
