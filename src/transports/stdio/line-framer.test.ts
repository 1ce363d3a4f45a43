import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LineFramer } from './line-framer.js';
import { serializeMessage } from '../../jsonrpc/serialize.js';
import type { JsonRpcMessage } from '../../jsonrpc/message.js';

const enc = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

type Event = { kind: 'line'; bytes: Uint8Array } | { kind: 'oversize'; bytes: number };

function harness(maxBytes: number) {
  const events: Event[] = [];
  const framer = new LineFramer(maxBytes, {
    // Copy: the framer may hand out views into the pushed chunks.
    line: (bytes) => events.push({ kind: 'line', bytes: bytes.slice() }),
    oversize: (bytes) => events.push({ kind: 'oversize', bytes }),
  });
  const push = (chunk: Uint8Array | string) => {
    framer.push(typeof chunk === 'string' ? enc.encode(chunk) : chunk);
    assert.ok(framer.buffered <= maxBytes, `buffered ${framer.buffered} > maxBytes ${maxBytes}`);
  };
  const lines = () => events.flatMap((e) => (e.kind === 'line' ? [strictDecoder.decode(e.bytes)] : []));
  const oversizes = () => events.flatMap((e) => (e.kind === 'oversize' ? [e.bytes] : []));
  return { framer, events, push, lines, oversizes };
}

/** Splits bytes at the given offsets (clamped, sorted), copying each piece. */
function chunk(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of [...points, bytes.length]) {
    if (p > prev) out.push(bytes.slice(prev, p));
    prev = p;
  }
  return out;
}

describe('LineFramer: framing', () => {
  test('delivers one newline-terminated line', () => {
    const h = harness(1024);
    h.push('{"jsonrpc":"2.0","method":"a"}\n');
    assert.deepEqual(h.lines(), ['{"jsonrpc":"2.0","method":"a"}']);
    assert.equal(h.framer.buffered, 0);
  });
  test('delivers lines as Uint8Array bytes', () => {
    const h = harness(1024);
    h.push('ab\n');
    const e = h.events[0];
    assert.ok(e && e.kind === 'line');
    assert.ok(e.bytes instanceof Uint8Array);
    assert.deepEqual([...e.bytes], [0x61, 0x62]);
  });
  test('strips a trailing CR (CRLF)', () => {
    const h = harness(1024);
    h.push('one\r\ntwo\r\n');
    assert.deepEqual(h.lines(), ['one', 'two']);
  });
  test('strips a CR that arrives in a different chunk from its LF', () => {
    const h = harness(1024);
    h.push('one\r');
    h.push('\ntwo\r');
    h.push('\n');
    assert.deepEqual(h.lines(), ['one', 'two']);
  });
  test('keeps a CR that is not at the end of the line', () => {
    const h = harness(1024);
    h.push('a\rb\n');
    assert.deepEqual(h.lines(), ['a\rb']);
  });
  test('skips blank lines', () => {
    const h = harness(1024);
    h.push('\n\n \n\t\n\r\n \t\r\nx\n\n');
    assert.deepEqual(h.lines(), ['x']);
    assert.deepEqual(h.oversizes(), []);
  });
  test('delivers several messages from one chunk, in order', () => {
    const h = harness(1024);
    h.push('{"id":1}\n{"id":2}\r\n{"id":3}\n');
    assert.deepEqual(h.lines(), ['{"id":1}', '{"id":2}', '{"id":3}']);
  });
  test('reassembles a line pushed one byte at a time, including multi-byte characters', () => {
    const text = '{"jsonrpc":"2.0","method":"é中😀𝄞"}';
    const bytes = enc.encode(`${text}\r\n${text}\n`);
    const h = harness(1024);
    for (let i = 0; i < bytes.length; i++) h.push(bytes.slice(i, i + 1));
    assert.deepEqual(h.lines(), [text, text]);
  });
  test('reassembles a line split inside every multi-byte character', () => {
    const text = 'é中😀';
    const bytes = enc.encode(`${text}\n`);
    for (let cut = 1; cut < bytes.length; cut++) {
      const h = harness(64);
      h.push(bytes.slice(0, cut));
      h.push(bytes.slice(cut));
      assert.deepEqual(h.lines(), [text], `cut at ${cut}`);
    }
  });
  test('a chunk can end one line and start the next', () => {
    const h = harness(1024);
    h.push('{"a":');
    h.push('1}\n{"b"');
    h.push(':2}\n');
    assert.deepEqual(h.lines(), ['{"a":1}', '{"b":2}']);
  });
  test('empty chunks are harmless', () => {
    const h = harness(1024);
    h.push(new Uint8Array(0));
    h.push('ab');
    h.push(new Uint8Array(0));
    h.push('\n');
    assert.deepEqual(h.lines(), ['ab']);
  });
  test('buffered counts the bytes held for an incomplete line', () => {
    const h = harness(1024);
    h.push('abc');
    assert.equal(h.framer.buffered, 3);
    h.push('de');
    assert.equal(h.framer.buffered, 5);
    h.push('\nxy');
    assert.equal(h.framer.buffered, 2);
    assert.deepEqual(h.lines(), ['abcde']);
  });
});

describe('LineFramer: end()', () => {
  test('flushes a final unterminated line', () => {
    const h = harness(1024);
    h.push('a\nlast');
    assert.deepEqual(h.lines(), ['a']);
    h.framer.end();
    assert.deepEqual(h.lines(), ['a', 'last']);
    assert.equal(h.framer.buffered, 0);
  });
  test('flushes a final line split over chunks and strips its CR', () => {
    const h = harness(1024);
    h.push('la');
    h.push('st\r');
    h.framer.end();
    assert.deepEqual(h.lines(), ['last']);
  });
  test('does nothing when nothing is held, or only blanks', () => {
    const h = harness(1024);
    h.framer.end();
    h.push('x\n');
    h.framer.end();
    h.push('  \t');
    h.framer.end();
    assert.deepEqual(h.lines(), ['x']);
    assert.deepEqual(h.oversizes(), []);
  });
  test('reports an oversize final line once and delivers nothing for it', () => {
    const h = harness(8);
    h.push('ok\n');
    h.push('0123456789abcdef');
    h.framer.end();
    assert.deepEqual(h.lines(), ['ok']);
    assert.equal(h.oversizes().length, 1);
    assert.ok((h.oversizes()[0] ?? 0) > 8);
  });
});

describe('LineFramer: oversize lines', () => {
  test('a line of exactly maxBytes is delivered, in one chunk or split', () => {
    const h = harness(8);
    h.push('12345678\n');
    h.push('1234');
    h.push('5678');
    h.push('\n');
    assert.deepEqual(h.lines(), ['12345678', '12345678']);
    assert.deepEqual(h.oversizes(), []);
  });
  test('a line one byte over maxBytes in one chunk is reported once; the next line survives', () => {
    const h = harness(8);
    h.push('123456789\nnext\n');
    assert.deepEqual(h.lines(), ['next']);
    assert.equal(h.oversizes().length, 1);
    assert.ok((h.oversizes()[0] ?? 0) > 8);
  });
  test('a long line over many chunks is reported once, memory stays bounded', () => {
    const h = harness(16);
    h.push('a\n');
    for (let i = 0; i < 100; i++) h.push('xxxxxxx'); // buffered checked on every push
    assert.equal(h.oversizes().length, 0, 'reported when the line ends, not per chunk');
    h.push('xx\nb\n');
    h.push('c\n');
    assert.deepEqual(h.lines(), ['a', 'b', 'c']);
    assert.equal(h.oversizes().length, 1);
    assert.ok((h.oversizes()[0] ?? 0) > 16);
  });
  test('a long line that becomes too long only at its newline is reported once', () => {
    const h = harness(8);
    h.push('12345678');
    assert.equal(h.framer.buffered, 8);
    h.push('9\nz\n');
    assert.deepEqual(h.lines(), ['z']);
    assert.equal(h.oversizes().length, 1);
  });
  test('two long lines in a row are reported separately', () => {
    const h = harness(4);
    h.push('aaaaaa\nbbbbbbb');
    h.push('bbbb\nc\n');
    assert.deepEqual(h.lines(), ['c']);
    assert.equal(h.oversizes().length, 2);
  });
  test('bytes discarded from a long line never leak into the next line', () => {
    const h = harness(4);
    h.push('abcdef');
    h.push('gh\nij');
    h.push('\n');
    assert.deepEqual(h.lines(), ['ij']);
  });
});

// ---------------------------------------------------------------------------------------
// Properties

// Any code point, weighted towards multi-byte UTF-8 (fc's 'binary' unit is slow to set up).
const codePoint = fc
  .oneof(
    fc.integer({ min: 0x20, max: 0x7e }),
    fc.integer({ min: 0x80, max: 0x7ff }),
    fc.integer({ min: 0x800, max: 0xffff }).filter((c) => c < 0xd800 || c > 0xdfff),
    fc.integer({ min: 0x10000, max: 0x10ffff }),
    fc.integer({ min: 0, max: 0x1f }),
  )
  .map((c) => String.fromCodePoint(c));
const text = fc.string({ unit: codePoint, maxLength: 24 });
const messageArb: fc.Arbitrary<JsonRpcMessage> = fc.oneof(
  fc.record({
    jsonrpc: fc.constant('2.0' as const),
    id: fc.oneof(fc.maxSafeInteger(), text),
    method: text,
    params: fc.dictionary(text, fc.oneof(text, fc.integer()), { maxKeys: 3 }),
  }),
  fc.record({ jsonrpc: fc.constant('2.0' as const), method: text }),
  fc.record({
    jsonrpc: fc.constant('2.0' as const),
    id: fc.maxSafeInteger(),
    result: fc.dictionary(text, text, { maxKeys: 3 }),
  }),
);

const isBlankLine = (b: Uint8Array) => b.every((x) => x === 0x20 || x === 0x09 || x === 0x0d);
const noLineBreaks = (b: Uint8Array) => b.map((x) => (x === 0x0a || x === 0x0d ? 0x2e : x));

/** A line's bytes (no LF, no trailing CR); blank lines are expected to be skipped. */
const lineArb = fc.oneof(
  { arbitrary: messageArb.map((m) => enc.encode(serializeMessage(m))), weight: 5 },
  { arbitrary: text.map((s) => noLineBreaks(enc.encode(s))), weight: 2 },
  { arbitrary: fc.uint8Array({ maxLength: 24 }).map(noLineBreaks), weight: 1 },
  { arbitrary: fc.constantFrom('', ' ', '\t', ' \t ').map((s) => enc.encode(s)), weight: 1 },
);

const chunkingArb = fc.oneof(
  { arbitrary: fc.array(fc.nat(), { maxLength: 30 }), weight: 5 },
  { arbitrary: fc.constant('bytes' as const), weight: 1 },
);

function encodeStream(lines: Array<[Uint8Array, string]>, terminateLast: boolean): Uint8Array {
  const parts: number[] = [];
  lines.forEach(([bytes, eol], i) => {
    parts.push(...bytes);
    if (i < lines.length - 1 || terminateLast) parts.push(...enc.encode(eol));
  });
  return new Uint8Array(parts);
}

function split(bytes: Uint8Array, chunking: number[] | 'bytes'): Uint8Array[] {
  if (chunking === 'bytes') return [...bytes].map((b) => new Uint8Array([b]));
  return chunk(bytes, chunking);
}

describe('LineFramer: properties', () => {
  test('(c) any chunking of any stream delivers exactly the original lines in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(lineArb, fc.constantFrom('\n', '\r\n')), { maxLength: 12 }),
        fc.boolean(),
        chunkingArb,
        (lines, terminateLast, chunking) => {
          const stream = encodeStream(lines, terminateLast);
          const h = harness(1 << 16);
          for (const c of split(stream, chunking)) h.push(c);
          h.framer.end();
          const want = lines.map(([b]) => b).filter((b) => !isBlankLine(b));
          assert.deepEqual(h.oversizes(), []);
          const got = h.events.map((e) => (e.kind === 'line' ? e.bytes : new Uint8Array()));
          assert.deepEqual(got, want);
          assert.equal(h.framer.buffered, 0);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('(c) serialized messages come back as the same messages', () => {
    fc.assert(
      fc.property(
        fc.array(messageArb, { minLength: 1, maxLength: 8 }),
        fc.constantFrom('\n', '\r\n'),
        chunkingArb,
        (messages, eol, chunking) => {
          const stream = enc.encode(messages.map((m) => serializeMessage(m) + eol).join(''));
          const h = harness(1 << 16);
          for (const c of split(stream, chunking)) h.push(c);
          assert.deepEqual(
            h.lines().map((l) => JSON.parse(l) as unknown),
            JSON.parse(JSON.stringify(messages)),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  test('(d) with a small maxBytes memory stays bounded and short lines after long ones arrive', () => {
    const scenario = fc.integer({ min: 2, max: 32 }).chain((maxBytes) => {
      // Short lines fit even with a CR counted; long lines are over the limit either way.
      const short = fc
        .uint8Array({ minLength: 1, maxLength: maxBytes - 1 })
        .map(noLineBreaks)
        .map((b) => (isBlankLine(b) ? b.map(() => 0x61) : b))
        .map((b) => ({ long: false, bytes: b }));
      const long = fc
        .uint8Array({ minLength: maxBytes + 1, maxLength: maxBytes * 5 })
        .map(noLineBreaks)
        .map((b) => ({ long: true, bytes: b }));
      return fc.tuple(
        fc.constant(maxBytes),
        fc.array(fc.tuple(fc.oneof(short, long), fc.constantFrom('\n', '\r\n')), {
          maxLength: 10,
        }),
        fc.boolean(),
        chunkingArb,
      );
    });
    fc.assert(
      fc.property(scenario, ([maxBytes, lines, terminateLast, chunking]) => {
        const stream = encodeStream(
          lines.map(([l, eol]) => [l.bytes, eol]),
          terminateLast,
        );
        const h = harness(maxBytes);
        for (const c of split(stream, chunking)) h.push(c); // asserts buffered <= maxBytes
        h.framer.end();
        assert.equal(h.framer.buffered, 0);
        const want = lines.map(([l]) => (l.long ? 'oversize' : l.bytes));
        const got = h.events.map((e) => {
          if (e.kind === 'line') return e.bytes;
          assert.ok(e.bytes > maxBytes, `oversize reported ${e.bytes} <= ${maxBytes}`);
          return 'oversize';
        });
        assert.deepEqual(got, want);
      }),
      { numRuns: 300 },
    );
  });
});
