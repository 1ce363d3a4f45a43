import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { LocalError } from '../jsonrpc/index.js';
import { McpServer } from '../server/server.js';
import { serve } from '../serve/index.js';
import { serverCardProblems } from '../test-support/card-schemas.js';
import { fetchServerCard, serverCardProblem } from './server-card.js';

/** A loopback server answering every request with `answer`. */
async function cardHost(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    seen.push(req);
    answer(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp/server-card`;
  return {
    url,
    seen,
    [Symbol.asyncDispose]: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const json = (doc: unknown) => (_: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/mcp-server-card+json' }).end(JSON.stringify(doc));
};

const good = {
  $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
  name: 'com.example/weather',
  version: '1.0.0',
  description: 'Weather.',
};

async function rejectsWith(p: Promise<unknown>, code: string, re: RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof LocalError, String(e));
    assert.equal(e.code, code);
    assert.match(e.message, re);
    return true;
  });
}

describe('fetchServerCard', () => {
  it('reads the card serve() publishes, asking for the card media type', async () => {
    await using running = await serve(
      new McpServer({ name: 'com.example/weather', version: '2.0.0', description: 'Forecasts.' }),
      { serverCard: true },
    );
    const card = await fetchServerCard(`${running.url}/server-card`);
    assert.equal(card.name, 'com.example/weather');
    assert.equal(card.version, '2.0.0');
    assert.equal(card.remotes?.[0]?.url, running.url);
    await using host = await cardHost(json(good));
    await fetchServerCard(host.url);
    assert.match(host.seen[0]?.headers.accept ?? '', /^application\/mcp-server-card\+json/);
  });

  it('names the field of a malformed card', async () => {
    await using host = await cardHost(json({ ...good, remotes: [{ type: 'websocket', url: 'wss://x' }] }));
    await rejectsWith(fetchServerCard(host.url), 'InvalidServerCard', /\/remotes\/0\/type/);
  });

  it('refuses a card over the size cap, declared or not', async () => {
    const big = { ...good, _meta: { 'com.example/pad': 'x'.repeat(100_000) } };
    await using declared = await cardHost(json(big));
    await rejectsWith(fetchServerCard(declared.url), 'MessageTooLarge', /limit/);
    await using chunked = await cardHost((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(JSON.stringify(big).slice(0, 50_000));
      res.end(JSON.stringify(big).slice(50_000));
    });
    await rejectsWith(fetchServerCard(chunked.url, { maxBytes: 10_000 }), 'MessageTooLarge', /limit/);
  });

  it('gives up on a host that never answers, and reports HTTP errors and non-JSON', async () => {
    await using silent = await cardHost(() => undefined);
    await rejectsWith(fetchServerCard(silent.url, { timeoutMs: 200 }), 'RequestTimeout', /no answer/);
    await using missing = await cardHost((_, res) => res.writeHead(404).end());
    await rejectsWith(fetchServerCard(missing.url), 'ServerCardUnavailable', /HTTP 404/);
    await using html = await cardHost((_, res) => res.writeHead(200).end('<html>'));
    await rejectsWith(fetchServerCard(html.url), 'InvalidServerCard', /not JSON/);
  });

  it('agrees with the vendored schema on the extension examples and on broken cards', async () => {
    const { fixtureText } = await import('../test-support/card-schemas.js');
    const { readdirSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { schemaFixtureDir } = await import('../test-support/schema-revisions.js');
    const docs: unknown[] = [
      good,
      { ...good, title: '' },
      { ...good, description: 'x'.repeat(101) },
      { ...good, icons: [{ src: 'not a uri' }] },
      { ...good, repository: { url: 'https://github.com/a/b' } },
      { ...good, remotes: [{ type: 'sse', url: 'ftp://x' }] },
      { ...good, remotes: [{ type: 'sse', url: '{base}/sse', headers: [{}] }] },
      { ...good, websiteUrl: 'nope' },
    ];
    for (const kind of ['valid', 'invalid']) {
      const dir = join(schemaFixtureDir(), '..', 'ext-server-card', 'examples', 'ServerCard', kind);
      for (const f of readdirSync(dir))
        docs.push(JSON.parse(fixtureText('ext-server-card', 'examples', 'ServerCard', kind, f)));
    }
    for (const doc of docs) {
      const ours = serverCardProblem(doc);
      const schema = serverCardProblems(doc);
      assert.equal(ours === undefined, schema.length === 0, `${JSON.stringify(doc)}: ${ours} vs ${schema}`);
    }
  });
});
