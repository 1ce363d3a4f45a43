/**
 * LegacySessionTransport on its own, with fake response channels: how a JSON-mode POST
 * turns into an SSE stream when a related message precedes its answer, with the in-memory
 * event store and with one that answers asynchronously.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFrame } from '../../jsonrpc/index.js';
import type { JsonRpcMessage } from '../../jsonrpc/index.js';
import { MemoryEventStore } from './event-store.js';
import type { EventStore } from './event-store.js';
import type { ResponseStream } from './exchange.js';
import { LegacySessionTransport } from './legacy-session.js';
import type { JsonReply } from './legacy-session.js';
import { WAIT_MS, turn, waitFor } from '../../test-support/waiting.js';

class FakeOut implements ResponseStream {
  readonly chunks: string[] = [];
  ended = false;
  write(chunk: string): boolean {
    if (this.ended) return false;
    this.chunks.push(chunk);
    return true;
  }
  end(): void {
    this.ended = true;
  }
}

class FakeReply implements JsonReply {
  bodies: string[] = [];
  out: FakeOut | undefined;
  body(text: string): void {
    this.bodies.push(text);
  }
  stream(): ResponseStream {
    assert.equal(this.out, undefined, 'stream() is called at most once');
    assert.deepEqual(this.bodies, [], 'and never after body()');
    return (this.out = new FakeOut());
  }
}

/** An event store that answers every call on a later turn of the event loop. */
class SlowStore implements EventStore {
  private readonly inner = new MemoryEventStore();
  async append(streamId: string, message: JsonRpcMessage | null): Promise<string> {
    await turn();
    return this.inner.append(streamId, message);
  }
  async replayAfter(
    lastEventId: string,
    send: (eventId: string, message: JsonRpcMessage) => void,
  ): Promise<string | undefined> {
    await turn();
    return this.inner.replayAfter(lastEventId, send);
  }
  drop(streamId: string): void {
    this.inner.drop(streamId);
  }
}

function session(store?: EventStore): LegacySessionTransport {
  const t = new LegacySessionTransport('0123456789abcdef', '', {
    retryMs: 500,
    ...(store ? { eventStore: store } : {}),
  });
  t.start({ frame: () => undefined, closed: () => undefined });
  // As if initialize had negotiated a revision whose streams open with a priming event.
  t.version = '2025-11-25';
  return t;
}

/** The events of an SSE body, as [id, data] pairs. */
function events(chunks: string[]): Array<[string | undefined, string]> {
  return chunks
    .join('')
    .split('\n\n')
    .filter((b) => b !== '')
    .map((b) => {
      const lines = b.split('\n');
      const id = lines.find((l) => l.startsWith('id: '))?.slice(4);
      const data = lines.find((l) => l.startsWith('data: '))?.slice(6) ?? '';
      return [id, data];
    });
}

const ok = (id: string): JsonRpcMessage => ({ jsonrpc: '2.0', id, result: {} });
const progress: JsonRpcMessage = {
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 't', progress: 1 },
};
const batchOf = (...ids: string[]): string =>
  JSON.stringify(ids.map((id) => ({ jsonrpc: '2.0', id, method: 'ping' })));

describe('LegacySessionTransport in JSON mode', () => {
  test('nothing related: one JSON body, no stream', async () => {
    const t = session();
    const reply = new FakeReply();
    await t.deliver(parseFrame(batchOf('a', 'b')), ['a', 'b'], {}, { json: reply });
    await t.send(ok('a'));
    await t.send(ok('b'));
    assert.equal(reply.out, undefined);
    assert.deepEqual(
      reply.bodies.map((b) => JSON.parse(b) as unknown),
      [[ok('a'), ok('b')]],
    );
    assert.equal(t.busy, false);
  });

  for (const [name, store] of [
    ['the in-memory store', undefined],
    ['an asynchronous store', new SlowStore()],
  ] as const) {
    test(`a related message switches to SSE: priming, collected answers, then the rest (${name})`, async () => {
      const t = session(store);
      const reply = new FakeReply();
      await t.deliver(parseFrame(batchOf('a', 'b')), ['a', 'b'], {}, { json: reply });
      await t.send(ok('a'));
      assert.equal(reply.out, undefined, 'still JSON while only answers come');
      await t.send(progress, { relatedRequestId: 'b' });
      const out = reply.out as FakeOut | undefined;
      assert.ok(out, 'the related message turned the POST into a stream');
      await t.send(ok('b'));
      // The asynchronous store finishes its writes on later ticks.
      await waitFor(() => out.ended, WAIT_MS, 'the stream to end');
      assert.equal(out.ended, true, 'the stream ends after the last answer');
      assert.deepEqual(reply.bodies, [], 'no JSON body as well');
      const got = events(out.chunks);
      assert.match(out.chunks.join(''), /^id: \S+\nretry: 500\ndata: \n\n/, 'the priming event first');
      assert.deepEqual(
        got.map(([, data]) => (data === '' ? '' : (JSON.parse(data) as JsonRpcMessage))),
        ['', ok('a'), progress, ok('b')],
      );
      const ids = got.map(([id]) => id);
      assert.ok(
        ids.every((id) => id !== undefined),
        'every event has an id',
      );
      assert.equal(new Set(ids).size, ids.length, 'distinct ids');
      assert.equal(t.busy, false);
      await t.close();
    });
  }

  test('messages related to another POST, or to none, do not switch it', async () => {
    const t = session();
    const reply = new FakeReply();
    const standalone = new FakeOut();
    t.openStandalone(standalone);
    await t.deliver(parseFrame(batchOf('x')), ['x'], {}, { json: reply });
    await t.send(progress, { relatedRequestId: 'other' });
    await t.send(progress);
    await t.send(ok('x'));
    assert.equal(reply.out, undefined);
    assert.equal(reply.bodies.length, 1);
    assert.equal(events(standalone.chunks).length, 2, 'both went on the GET stream');
    await t.close();
  });

  test('closing the session ends an upgraded stream', async () => {
    const t = session();
    const reply = new FakeReply();
    await t.deliver(parseFrame(batchOf('c')), ['c'], {}, { json: reply });
    await t.send(progress, { relatedRequestId: 'c' });
    await t.close();
    assert.equal(reply.out?.ended, true);
    assert.deepEqual(reply.bodies, []);
  });
});
