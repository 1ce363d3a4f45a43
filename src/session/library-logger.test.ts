/**
 * The library logger: mcpkit's diagnostics through a real pino logger, read back from the
 * stream pino writes to, with the request's trace id from `_meta.traceparent`; the strict
 * traceparent parser; `false` silencing everything; the HTTP endpoint's own failures.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { Client } from '../client/client.js';
import { ErrorCode, WireError } from '../jsonrpc/index.js';
import { McpServer } from '../server/server.js';
import { serve } from '../serve/serve.js';
import { memoryPair } from '../transports/memory/index.js';
import { initializeRequest, postJson } from '../test-support/http-server-harness.js';
import { parseTraceparent } from './library-logger.js';

type Line = Record<string, unknown>;

/** A pino logger at debug level writing JSON lines into an array. */
function recordingPino(): { logger: pino.Logger; lines: Line[] } {
  const lines: Line[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const l of chunk.toString('utf8').split('\n')) if (l) lines.push(JSON.parse(l) as Line);
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SPAN = 'b7ad6b7169203331';
const TRACEPARENT = `00-${TRACE}-${SPAN}-01`;

describe('parseTraceparent', () => {
  test('reads a valid version-00 value', () => {
    assert.deepEqual(parseTraceparent(TRACEPARENT), { traceId: TRACE, spanId: SPAN, sampled: true });
    assert.equal(parseTraceparent(`00-${TRACE}-${SPAN}-00`)?.sampled, false);
  });

  test('reads a later version by its version-00 prefix', () => {
    assert.equal(parseTraceparent(`01-${TRACE}-${SPAN}-01-extra`)?.traceId, TRACE);
    assert.equal(parseTraceparent(`01-${TRACE}-${SPAN}-01`)?.traceId, TRACE);
  });

  test('refuses anything malformed', () => {
    for (const bad of [
      undefined,
      42,
      '',
      `ff-${TRACE}-${SPAN}-01`,
      `00-${TRACE}-${SPAN}-01-extra`,
      `00-${TRACE.toUpperCase()}-${SPAN}-01`,
      `00-${'0'.repeat(32)}-${SPAN}-01`,
      `00-${TRACE}-${'0'.repeat(16)}-01`,
      `00-${TRACE}-${SPAN}-0g`,
      `00_${TRACE}-${SPAN}-01`,
      `00-${TRACE.slice(1)}-${SPAN}0-01`,
      `01-${TRACE}-${SPAN}-01x`,
      `00-${TRACE}-${SPAN}-01`.padEnd(600, '-'),
    ]) {
      assert.equal(parseTraceparent(bad), undefined, String(bad));
    }
  });
});

async function connected(server: McpServer): Promise<Client> {
  const client = new Client({ name: 'c', version: '1' }, { era: 'legacy', logger: false, cache: false });
  const [a, b] = memoryPair();
  await server.connect(b);
  await client.connect(a);
  return client;
}

describe('a pino logger as the server’s logger', () => {
  test('a handler failure is logged at error with its request and trace id; the wire gets no detail', async () => {
    const { logger, lines } = recordingPino();
    const server = new McpServer({ name: 's', version: '1' }, { logger });
    server.resource({ uri: 'test://boom', name: 'boom' }, () => {
      throw new Error('secret internal detail');
    });
    const client = await connected(server);
    await assert.rejects(
      client.readResource({ uri: 'test://boom', _meta: { traceparent: TRACEPARENT } }),
      (e) => e instanceof WireError && e.code === ErrorCode.InternalError && !e.message.includes('secret'),
    );
    const line = lines.find((l) => l.msg === 'Handler for resources/read failed');
    assert.ok(line, JSON.stringify(lines));
    assert.equal(line.level, 50);
    assert.equal(line.lib, 'mcpkit');
    assert.equal(line.method, 'resources/read');
    assert.equal(typeof line.requestId, 'number');
    assert.equal(line.traceId, TRACE);
    assert.equal(line.spanId, SPAN);
    assert.equal((line.err as { message: string }).message, 'secret internal detail');
    await client.close();
    await server.close();
  });

  test('a malformed traceparent is left out, never half-used', async () => {
    const { logger, lines } = recordingPino();
    const server = new McpServer({ name: 's', version: '1' }, { logger });
    server.resource({ uri: 'test://boom', name: 'boom' }, () => {
      throw new Error('x');
    });
    const client = await connected(server);
    await assert.rejects(
      client.readResource({ uri: 'test://boom', _meta: { traceparent: `00-${TRACE}-zz-01` } }),
    );
    const line = lines.find((l) => l.msg === 'Handler for resources/read failed');
    assert.ok(line);
    assert.equal('traceId' in line, false);
    await client.close();
    await server.close();
  });

  test('rate limit refusals are logged at debug with the trace id', async () => {
    const { logger, lines } = recordingPino();
    const server = new McpServer(
      { name: 's', version: '1' },
      { logger, rateLimit: { requests: { perSecond: 0.1, burst: 1 } } },
    );
    server.tool({ name: 'ok' }, () => 'ok');
    const client = await connected(server);
    await client.callTool({ name: 'ok' });
    await assert.rejects(client.callTool({ name: 'ok', _meta: { traceparent: TRACEPARENT } }));
    const line = lines.find((l) => String(l.msg).startsWith('Rate limit: refused tools/call ok'));
    assert.ok(line, JSON.stringify(lines));
    assert.equal(line.level, 20);
    assert.equal(line.traceId, TRACE);
    assert.ok((line.retryAfterMs as number) > 0);
    await client.close();
    await server.close();
  });

  test('a store outage is logged once at warn', async () => {
    const { logger, lines } = recordingPino();
    const server = new McpServer(
      { name: 's', version: '1' },
      {
        logger,
        rateLimit: {
          requests: { perSecond: 1 },
          store: {
            take: () => {
              throw new Error('store down');
            },
          },
        },
      },
    );
    server.tool({ name: 'ok' }, () => 'ok');
    const client = await connected(server);
    await client.callTool({ name: 'ok' });
    await client.callTool({ name: 'ok' });
    const warned = lines.filter((l) => l.level === 40);
    assert.equal(warned.length, 1, JSON.stringify(lines));
    assert.match(String(warned[0]!.msg), /Rate limit store failed; requests are allowed/);
    assert.equal((warned[0]!.err as { message: string }).message, 'store down');
    await client.close();
    await server.close();
  });

  test('logger: false says nothing at all', async () => {
    const seen: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void seen.push(String(args[0]));
    try {
      const server = new McpServer({ name: 's', version: '1' }, { logger: false });
      server.resource({ uri: 'test://boom', name: 'boom' }, () => {
        throw new Error('x');
      });
      const client = await connected(server);
      await assert.rejects(client.readResource({ uri: 'test://boom' }));
      await client.close();
      await server.close();
    } finally {
      console.error = original;
    }
    assert.deepEqual(seen, []);
  });
});

describe('a pino logger on the HTTP endpoint', () => {
  test('a connector that fails is logged as the endpoint’s error, with method and path', async () => {
    const { logger, lines } = recordingPino();
    await using running = await serve(
      {
        connect: () => Promise.reject(new Error('cannot connect')),
      },
      { port: 0, logger },
    );
    const r = await postJson(running.url, initializeRequest());
    assert.equal(r.status, 500);
    const line = lines.find((l) => l.msg === 'HTTP handler failed');
    assert.ok(line, JSON.stringify(lines));
    assert.equal(line.level, 50);
    assert.equal(line.method, 'POST');
    assert.equal(line.path, '/mcp');
    assert.equal((line.err as { message: string }).message, 'cannot connect');
  });
});
