import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LocalError } from '../../jsonrpc/index.js';
import { fetchRequester } from './http.js';
import { Cancel } from './requester.js';
import type { HttpReply } from './requester.js';
import { readSse } from './sse-reader.js';
import type { EventSourceMessage } from './sse-reader.js';

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(c) {
      if (i < chunks.length) c.enqueue(chunks[i++]!);
      else c.close();
    },
  });
}

/** A reply over a web stream, through the fetch requester (the web binding). */
function replyOf(body: ReadableStream<Uint8Array>): Promise<HttpReply> {
  const requester = fetchRequester(() => Promise.resolve(new Response(body)));
  return requester({
    method: 'GET',
    url: new URL('http://127.0.0.1/'),
    headers: {},
    cancel: new Cancel(),
  });
}

function split(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let at = 0;
  for (const p of points) {
    out.push(bytes.subarray(at, p));
    at = p;
  }
  out.push(bytes.subarray(at));
  return out;
}

async function collect(chunks: Uint8Array[]) {
  const events: EventSourceMessage[] = [];
  const retries: number[] = [];
  const error = await readSse(
    await replyOf(streamOf(chunks)),
    { event: (e) => events.push(e), retry: (ms) => retries.push(ms) },
    1000,
  );
  return { events, retries, error };
}

describe('readSse', () => {
  test('ids, retry, event names, comments, CRLF and multi-line data', async () => {
    const text =
      ': keep-alive\r\nid: 1\r\nretry: 500\r\ndata: \r\n\r\nevent: message\nid: 2\ndata: {"a":\ndata: 1}\n\nevent: endpoint\ndata: /messages?s=1\n\n';
    const { events, retries, error } = await collect([new TextEncoder().encode(text)]);
    assert.equal(error, undefined);
    assert.deepEqual(retries, [500]);
    assert.deepEqual(
      events.map((e) => [e.id, e.event, e.data]),
      [
        ['1', undefined, ''],
        ['2', 'message', '{"a":\n1}'],
        [undefined, 'endpoint', '/messages?s=1'],
      ],
    );
  });

  test('property: any chunking, even inside a multi-byte character, gives the same events', async () => {
    const messages = fc.array(
      fc.string({ unit: 'grapheme', maxLength: 20 }).filter((s) => !/[\r\n]/.test(s)),
      { minLength: 1, maxLength: 5 },
    );
    await fc.assert(
      fc.asyncProperty(messages, fc.array(fc.nat(), { maxLength: 8 }), async (datas, cuts) => {
        const bytes = new TextEncoder().encode(datas.map((d, i) => `id: ${i}\ndata: ${d}\n\n`).join(''));
        const { events, error } = await collect(split(bytes, cuts));
        assert.equal(error, undefined);
        assert.deepEqual(
          events.map((e) => e.data),
          datas,
        );
      }),
      { numRuns: 200 },
    );
  });

  test('an event larger than the bound ends the stream with MessageTooLarge', async () => {
    const bytes = new TextEncoder().encode(`data: ${'x'.repeat(5000)}\n\n`);
    const { error } = await collect(split(bytes, [500, 1000, 1500, 2000, 2500, 3000]));
    assert.ok(error instanceof LocalError);
    assert.equal(error.code, 'MessageTooLarge');
  });

  test('a failing body resolves with its error instead of throwing', async () => {
    const failing = new ReadableStream<Uint8Array>({
      pull(c) {
        c.error(new Error('socket hang up'));
      },
    });
    const error = await readSse(await replyOf(failing), { event: () => undefined });
    assert.match(String((error as Error).message), /socket hang up/);
  });
});
