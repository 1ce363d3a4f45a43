import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpServer } from '../server/server.js';
import { fetchHandler } from '../transports/http-server/index.js';
import { serverCardProblems } from '../test-support/card-schemas.js';
import { serve } from './serve.js';

const info = {
  name: 'com.example/weather',
  version: '1.2.0',
  title: 'Weather',
  description: 'Forecasts and alerts for any city.',
  icons: [{ src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'] }],
  websiteUrl: 'https://example.com/weather',
};

describe('Server Card (SEP-2127) on serve()', () => {
  it('is off by default: 404 at <endpoint>/server-card and at the catalog', async () => {
    await using running = await serve(new McpServer(info));
    assert.equal((await fetch(`${running.url}/server-card`)).status, 404);
    assert.equal((await fetch(new URL('/.well-known/ai-catalog.json', running.url))).status, 404);
  });

  it('serves a card built from the server info, valid against the vendored schema', async () => {
    await using running = await serve(new McpServer(info), { serverCard: true });
    const res = await fetch(`${running.url}/server-card`, {
      headers: { accept: 'application/mcp-server-card+json' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/mcp-server-card+json');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('access-control-expose-headers'), 'ETag');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=3600');
    const card = (await res.json()) as Record<string, unknown>;
    assert.deepEqual(serverCardProblems(card), []);
    assert.equal(card.name, 'com.example/weather');
    assert.equal(card.version, '1.2.0');
    assert.equal(card.title, 'Weather');
    assert.deepEqual(card.icons, info.icons);
    const remotes = card.remotes as { type: string; url: string; supportedProtocolVersions: string[] }[];
    assert.equal(remotes[0]?.type, 'streamable-http');
    assert.equal(remotes[0]?.url, running.url);
    assert.ok(remotes[0]?.supportedProtocolVersions.includes('2025-11-25'));
    assert.equal(remotes[1]?.type, 'sse');
    assert.equal(remotes[1]?.url, new URL('/sse', running.url).href);
  });

  it('answers If-None-Match with 304, HEAD without a body, OPTIONS with CORS, POST with 405', async () => {
    await using running = await serve(new McpServer(info), { serverCard: true });
    const url = `${running.url}/server-card`;
    const first = await fetch(url);
    const etag = first.headers.get('etag');
    assert.ok(etag);
    await first.arrayBuffer();
    const again = await fetch(url, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get('etag'), etag);
    const head = await fetch(url, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
    const pre = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-headers': 'if-none-match' },
    });
    assert.equal(pre.status, 204);
    assert.match(pre.headers.get('access-control-allow-headers') ?? '', /If-None-Match/);
    const post = await fetch(url, { method: 'POST', body: '{}' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD, OPTIONS');
  });

  it('is readable from a page on another origin, but a foreign Host is still refused (DNS rebinding)', async () => {
    await using running = await serve(new McpServer(info), { serverCard: true });
    const fromPage = await fetch(`${running.url}/server-card`, {
      headers: { origin: 'https://elsewhere.example' },
    });
    assert.equal(fromPage.status, 200);
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${running.url}/server-card`, { headers: { host: 'evil.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(status, 403);
  });

  it('lists the card in the AI Catalog at /.well-known/ai-catalog.json', async () => {
    await using running = await serve(new McpServer(info), { serverCard: true });
    const res = await fetch(new URL('/.well-known/ai-catalog.json', running.url));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/ai-catalog+json');
    assert.deepEqual(await res.json(), {
      specVersion: '1.0',
      entries: [
        {
          identifier: 'urn:air:example.com:mcp:weather',
          type: 'application/mcp-server-card+json',
          url: `${running.url}/server-card`,
        },
      ],
    });
  });

  it('takes overrides (a reverse-DNS name, the public URL) and refuses a card the schema would not', async () => {
    const server = new McpServer({ name: 'weather', version: '1.0.0' });
    await assert.rejects(serve(server, { serverCard: true }), /serverCard: name must be reverse-DNS/);
    await assert.rejects(
      serve(server, { serverCard: { name: 'com.example/weather' } }),
      /serverCard: description is required/,
    );
    await using running = await serve(server, {
      serverCard: {
        name: 'com.example/weather',
        description: 'Weather.',
        url: 'https://mcp.example.com/mcp',
        repository: { url: 'https://github.com/example/weather', source: 'github' },
      },
      legacySse: null,
    });
    const card = (await (await fetch(`${running.url}/server-card`)).json()) as Record<string, unknown>;
    assert.deepEqual(serverCardProblems(card), []);
    assert.deepEqual(
      (card.remotes as { url: string }[]).map((r) => r.url),
      ['https://mcp.example.com/mcp'],
    );
  });

  it('is public even when the endpoint needs authentication', async () => {
    await using running = await serve(new McpServer(info), {
      serverCard: true,
      authenticate: (_req, res) => {
        res.writeHead(401).end();
        return false;
      },
    });
    assert.equal((await fetch(`${running.url}/server-card`)).status, 200);
    assert.equal((await fetch(running.url, { method: 'POST' })).status, 401);
  });

  it('is served the same way by the fetch handler', async () => {
    const { fetch: handle } = fetchHandler(new McpServer(info), {
      serverCard: true,
      bindHost: '0.0.0.0',
      allowedHosts: ['mcp.example.com'],
      authenticate: () => new Response(null, { status: 401 }),
    });
    const res = await handle(new Request('https://mcp.example.com/mcp/server-card'));
    assert.equal(res.status, 200);
    const card = (await res.json()) as { remotes: { url: string }[] };
    assert.deepEqual(serverCardProblems(card), []);
    assert.equal(card.remotes[0]?.url, 'http://mcp.example.com/mcp');
  });

  it('the vendored examples: valid ones pass the schema, invalid ones fail it', async () => {
    const { fixtureText } = await import('../test-support/card-schemas.js');
    const { readdirSync } = await import('node:fs');
    const { schemaFixtureDir } = await import('../test-support/schema-revisions.js');
    const dir = (kind: string) => `${schemaFixtureDir()}/../ext-server-card/examples/ServerCard/${kind}`;
    for (const kind of ['valid', 'invalid']) {
      for (const f of readdirSync(dir(kind))) {
        const doc = JSON.parse(fixtureText('ext-server-card', 'examples', 'ServerCard', kind, f)) as unknown;
        assert.equal(serverCardProblems(doc).length === 0, kind === 'valid', `${kind}/${f}`);
      }
    }
  });
});
