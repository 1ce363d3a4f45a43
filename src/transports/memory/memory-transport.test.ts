import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode, InvalidMessage, LocalError, ParsedBatch } from '../../jsonrpc/index.js';
import type { JsonRpcMessage, ParsedFrame, TransportSink } from '../../jsonrpc/index.js';
import { MemoryTransport, memoryPair } from './memory-transport.js';

const tick = () => new Promise<void>((r) => setImmediate(r));

function recorder(): { sink: TransportSink; frames: ParsedFrame[]; closed: number[] } {
  const frames: ParsedFrame[] = [];
  const closed: number[] = [];
  return {
    frames,
    closed,
    sink: {
      frame: (f) => frames.push(f),
      closed: () => closed.push(frames.length),
    },
  };
}

const note = (method: string, params?: Record<string, unknown>): JsonRpcMessage =>
  params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };

describe('memoryPair', () => {
  test('links the two ends to each other', () => {
    const [a, b] = memoryPair();
    assert.ok(a instanceof MemoryTransport);
    assert.ok(b instanceof MemoryTransport);
    assert.notEqual(a, b);
    assert.equal(a.peer, b);
    assert.equal(b.peer, a);
    assert.equal(a.kind, 'memory');
  });
});

describe('MemoryTransport: delivery', () => {
  test('delivers asynchronously, never inside send()', async () => {
    const [a, b] = memoryPair();
    const rb = recorder();
    b.start(rb.sink);
    const sent = a.send(note('x/y'));
    assert.equal(rb.frames.length, 0, 'delivered synchronously');
    await sent;
    await tick();
    assert.equal(rb.frames.length, 1);
    assert.deepEqual(rb.frames[0], { jsonrpc: '2.0', method: 'x/y' });
  });

  test('send() resolves to undefined', async () => {
    const [a, b] = memoryPair();
    b.start(recorder().sink);
    assert.equal(await a.send(note('x')), undefined);
  });

  test('serializes: the receiver gets an equal copy, never the sender object', async () => {
    const [a, b] = memoryPair();
    const rb = recorder();
    b.start(rb.sink);
    const nested = { deep: [1, 2, { three: 3 }] };
    const message: JsonRpcMessage = { jsonrpc: '2.0', id: 7, method: 'm', params: { nested } };
    await a.send(message);
    // Changes after send must not reach the receiver: the text was taken at send time.
    nested.deep.push(99);
    (message as { method: string }).method = 'changed';
    await tick();
    const got = rb.frames[0] as JsonRpcMessage & { params: { nested: unknown } };
    assert.notEqual(got, message);
    assert.notEqual(got.params.nested, nested);
    assert.deepEqual(got, {
      jsonrpc: '2.0',
      id: 7,
      method: 'm',
      params: { nested: { deep: [1, 2, { three: 3 }] } },
    });
  });

  test('carries only what JSON carries (undefined members vanish)', async () => {
    const [a, b] = memoryPair();
    const rb = recorder();
    b.start(rb.sink);
    await a.send(note('m', { keep: 1, gone: undefined, date: new Date(0) }));
    await tick();
    assert.deepEqual(rb.frames[0], {
      jsonrpc: '2.0',
      method: 'm',
      params: { keep: 1, date: '1970-01-01T00:00:00.000Z' },
    });
    assert.equal(Object.hasOwn((rb.frames[0] as { params: object }).params, 'gone'), false);
  });

  test('keeps order across many messages, both directions', async () => {
    const [a, b] = memoryPair();
    const ra = recorder();
    const rb = recorder();
    a.start(ra.sink);
    b.start(rb.sink);
    for (let i = 0; i < 100; i++) {
      void a.send({ jsonrpc: '2.0', id: i, method: 'a' });
      void b.send({ jsonrpc: '2.0', id: i, method: 'b' });
    }
    await tick();
    assert.deepEqual(
      rb.frames.map((f) => (f as { id: number }).id),
      Array.from({ length: 100 }, (_, i) => i),
    );
    assert.deepEqual(
      ra.frames.map((f) => (f as { method: string }).method),
      Array.from({ length: 100 }, () => 'b'),
    );
  });

  test('queues messages that arrive before start() and hands them over in order', async () => {
    const [a, b] = memoryPair();
    await a.send(note('first'));
    await a.send(note('second'));
    await tick();
    const rb = recorder();
    b.start(rb.sink);
    assert.deepEqual(
      rb.frames.map((f) => (f as { method: string }).method),
      ['first', 'second'],
    );
    await a.send(note('third'));
    await tick();
    assert.equal(rb.frames.length, 3);
  });

  test('a JSON array arrives as a ParsedBatch', async () => {
    const [a, b] = memoryPair();
    const rb = recorder();
    b.start(rb.sink);
    await a.send([note('one'), { jsonrpc: '2.0', id: 1, method: 'two' }]);
    await tick();
    const f = rb.frames[0];
    assert.ok(f instanceof ParsedBatch);
    assert.equal(f.items.length, 2);
    assert.deepEqual(f.items[1], { jsonrpc: '2.0', id: 1, method: 'two' });
  });

  test('deliver() parses raw text: invalid JSON becomes a -32700 InvalidMessage', () => {
    const [, b] = memoryPair();
    const rb = recorder();
    b.start(rb.sink);
    b.deliver('{not json');
    const f = rb.frames[0];
    assert.ok(f instanceof InvalidMessage);
    assert.equal(f.error.code, ErrorCode.ParseError);
    assert.equal(f.id, null);
    assert.equal(f.respond, true);
  });

  test('deliver() of an envelope that is not JSON-RPC gives -32600', () => {
    const [, b] = memoryPair();
    const rb = recorder();
    b.start(rb.sink);
    b.deliver('{"jsonrpc":"2.0","id":3,"method":5}');
    const f = rb.frames[0];
    assert.ok(f instanceof InvalidMessage);
    assert.equal(f.error.code, ErrorCode.InvalidRequest);
    assert.equal(f.id, 3);
  });
});

describe('MemoryTransport: close', () => {
  test('close() tells its own sink at once and the peer a little later', async () => {
    const [a, b] = memoryPair();
    const ra = recorder();
    const rb = recorder();
    a.start(ra.sink);
    b.start(rb.sink);
    const closing = a.close();
    assert.equal(ra.closed.length, 1, 'own sink not told synchronously');
    assert.equal(rb.closed.length, 0, 'peer told synchronously');
    await closing;
    await tick();
    assert.equal(rb.closed.length, 1);
  });

  test('close() is idempotent on both ends', async () => {
    const [a, b] = memoryPair();
    const ra = recorder();
    const rb = recorder();
    a.start(ra.sink);
    b.start(rb.sink);
    await a.close();
    await a.close();
    await tick();
    await b.close();
    await tick();
    assert.equal(ra.closed.length, 1);
    assert.equal(rb.closed.length, 1);
  });

  test('the peer closing closes this end too', async () => {
    const [a, b] = memoryPair();
    const ra = recorder();
    a.start(ra.sink);
    b.start(recorder().sink);
    await b.close();
    await tick();
    assert.equal(ra.closed.length, 1);
    await assert.rejects(a.send(note('x')), (e: unknown) => {
      assert.ok(e instanceof LocalError);
      assert.equal(e.code, 'ConnectionClosed');
      return true;
    });
  });

  test('send after close rejects with LocalError ConnectionClosed and delivers nothing', async () => {
    const [a, b] = memoryPair();
    const rb = recorder();
    b.start(rb.sink);
    a.start(recorder().sink);
    await a.close();
    await assert.rejects(a.send(note('late')), (e: unknown) => {
      assert.ok(e instanceof LocalError);
      assert.equal(e.code, 'ConnectionClosed');
      return true;
    });
    await tick();
    assert.equal(rb.frames.length, 0);
  });

  test('a message sent just before close is still delivered, before the close', async () => {
    const [a, b] = memoryPair();
    const rb = recorder();
    b.start(rb.sink);
    a.start(recorder().sink);
    await a.send(note('last words'));
    await a.close();
    await tick();
    assert.equal(rb.frames.length, 1);
    assert.deepEqual(rb.closed, [1], 'close seen before the last message');
  });

  test('a closed end drops what is delivered to it', async () => {
    const [a, b] = memoryPair();
    const ra = recorder();
    a.start(ra.sink);
    b.start(recorder().sink);
    await a.close();
    a.deliver('{"jsonrpc":"2.0","method":"ignored"}');
    assert.equal(ra.frames.length, 0);
  });

  test('close() works on an end that was never started or paired', async () => {
    const t = new MemoryTransport();
    await t.close();
    await assert.rejects(t.send(note('x')), LocalError);
  });
});
