// The `auto` era against servers that predate server/discover and refuse its POST at the
// HTTP level: a legacy Streamable HTTP server answering 400 (with or without a body), and an
// HTTP+SSE-only server answering every POST 404 or 405. The probe's refusal is taken as
// "no server/discover here": the client goes on with initialize, and from there to HTTP+SSE.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { Client } from '../../client/index.js';
import { createEverythingServer } from '../../demo/everything-server.js';
import { LocalError } from '../../jsonrpc/index.js';
import { createNodeListener } from '../../serve/index.js';
import { StreamableHttpClientTransport } from './node.js';

interface Refusal {
  status: number;
  body: string;
  /** Which POSTs are refused: server/discover only, or every POST to /sse. */
  what: 'discover' | 'every-sse-post';
}

/** The everything server (both eras, and HTTP+SSE at /sse), behind a front that refuses. */
async function serverRefusing(
  refusal: Refusal,
): Promise<{ origin: string; seen: string[]; close(): Promise<void> }> {
  const { listener } = createNodeListener(createEverythingServer());
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    const method = req.headers['mcp-method'];
    seen.push(`${req.method} ${req.url}${typeof method === 'string' ? ` ${method}` : ''}`);
    const refuse =
      req.method === 'POST' &&
      (refusal.what === 'discover' ? method === 'server/discover' : req.url === '/sse');
    if (!refuse) return listener(req, res);
    req.resume();
    res.writeHead(refusal.status, refusal.body ? { 'content-type': 'text/html' } : {});
    res.end(refusal.body);
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const closers: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const close of closers.reverse()) await close();
});

async function connect(url: string, era: 'auto' | 'modern'): Promise<Client> {
  const client = new Client({ name: 'auto-era', version: '1' }, { era });
  await client.connect(new StreamableHttpClientTransport({ url, legacySseFallback: true }));
  closers.push(() => client.close());
  return client;
}

const CASES: Array<Refusal & { name: string; path: string; sse: boolean }> = [
  { name: '400 with no body', status: 400, body: '', what: 'discover', path: '/mcp', sse: false },
  {
    name: '400 with a body',
    status: 400,
    body: '<h1>Bad Request</h1>',
    what: 'discover',
    path: '/mcp',
    sse: false,
  },
  {
    name: '404 on every POST (HTTP+SSE only)',
    status: 404,
    body: 'Cannot POST /sse',
    what: 'every-sse-post',
    path: '/sse',
    sse: true,
  },
  {
    name: '405 on every POST (HTTP+SSE only)',
    status: 405,
    body: '',
    what: 'every-sse-post',
    path: '/sse',
    sse: true,
  },
];

describe('auto era: server/discover refused at the HTTP level', () => {
  for (const c of CASES) {
    test(`${c.name}: falls back to initialize${c.sse ? ' and to HTTP+SSE' : ''}, and calls work`, async () => {
      const front = await serverRefusing(c);
      closers.push(front.close);
      const client = await connect(`${front.origin}${c.path}`, 'auto');
      assert.equal(client.era, 'legacy');
      const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } });
      assert.deepEqual(result.content, [{ type: 'text', text: '42' }]);
      // The probe went first and was refused; then initialize, over SSE when POST is refused.
      assert.equal(front.seen[0], `POST ${c.path} server/discover`);
      assert.equal(
        front.seen.some((s) => s.startsWith('GET /sse')),
        c.sse,
      );
    });
  }

  test('era "modern" against the same server fails at once, saying to try another era', async () => {
    const front = await serverRefusing({ status: 404, body: '', what: 'every-sse-post' });
    closers.push(front.close);
    await assert.rejects(
      connect(`${front.origin}/sse`, 'modern'),
      (e: unknown) =>
        e instanceof LocalError &&
        e.code === 'VersionMismatch' &&
        /HTTP 404 Not Found: the server does not serve server\/discover.*Try era "auto" or "legacy"/.test(
          e.message,
        ),
    );
  });
});
