// The modern `_meta` shortcuts: a kept `_meta` tail on parse, a fixed `_meta` text on
// serialize. Each must give exactly what JSON.parse / JSON.stringify give, or step aside.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseFrame } from './parse.js';
import { InvalidMessage } from './inspect.js';
import { fixedJson, fixedMetaText } from './raw-json.js';
import { serializeMessage } from './serialize.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'tails-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};
const TAIL = `,"_meta":${JSON.stringify(META)}}}`;
const request = (id: number, params: string) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{${params}${TAIL}`;

/** Parses `text` twice first, so its tail is kept, then once more. */
function parseKept(text: string): unknown {
  parseFrame(text);
  parseFrame(text);
  return parseFrame(text);
}

/** What parseFrame must give: JSON.parse's reading, or a parse error. */
function sameAsJsonParse(text: string): void {
  let expected: unknown;
  try {
    expected = JSON.parse(text);
  } catch {
    const got = parseFrame(text);
    assert.ok(got instanceof InvalidMessage && got.error.code === -32700, `accepted invalid JSON: ${text}`);
    return;
  }
  const got = parseFrame(text);
  if (got instanceof InvalidMessage) {
    // Not a message at all: the same refusal either way.
    assert.ok(got.error.code !== -32700, `valid JSON refused as a parse error: ${text}`);
    return;
  }
  assert.deepEqual(got, expected, text);
}

describe('kept _meta tails on parse', () => {
  test('a repeated tail is kept: the same frozen _meta object on every later message', () => {
    const a = parseKept(request(1, '"name":"echo","arguments":{"text":"a"}')) as {
      params: { _meta: unknown; name: string };
    };
    const b = parseFrame(request(2, '"name":"echo","arguments":{"text":"b"}')) as unknown as typeof a;
    assert.deepEqual(a.params._meta, META);
    assert.equal(a.params._meta, b.params._meta, 'one shared object');
    assert.ok(Object.isFrozen(a.params._meta));
    assert.ok(
      Object.isFrozen((a.params._meta as Record<string, unknown>)['io.modelcontextprotocol/clientInfo']),
    );
    assert.equal(b.params.name, 'echo');
    assert.deepEqual(b, JSON.parse(request(2, '"name":"echo","arguments":{"text":"b"}')));
  });

  test('a result ending with a kept tail (the server info) reads as JSON.parse reads it', () => {
    const text = (id: number) =>
      `{"jsonrpc":"2.0","id":${id},"result":{"resultType":"complete","content":[],"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}}`;
    assert.deepEqual(parseKept(text(1)), JSON.parse(text(1)));
    assert.deepEqual(parseFrame(text(2)), JSON.parse(text(2)));
  });

  // Texts that end with a kept tail but where the tail is not params' `_meta`, or the text is
  // not JSON at all. Each would be misread by a shortcut that trusted the suffix alone.
  const hostile: Record<string, string> = {
    'empty params before the comma (not JSON)': request(3, ''),
    'another key repeated after params takes the tail': `{"jsonrpc":"2.0","id":4,"method":"tools/call","x":{},"params":{"name":"a"},"x":{"k":1${TAIL}`,
    'method repeated as an object takes the tail': `{"jsonrpc":"2.0","id":5,"method":"m","params":{"name":"a"},"method":{"k":1${TAIL}`,
    'params repeated: the last one holds the tail': `{"jsonrpc":"2.0","id":6,"method":"m","params":{"name":"first"},"params":{"name":"second"${TAIL}`,
    'a _meta of its own earlier in params': request(7, '"_meta":{"evil":true},"name":"a"'),
    'the tail inside a string': `{"jsonrpc":"2.0","id":8,"method":"m","params":{"s":"x\\"${TAIL.replaceAll('"', '\\"')}"}}`,
    'an open array before the tail': `{"jsonrpc":"2.0","id":9,"method":"m","params":{"a":[1${TAIL}`,
    'one level deeper': `{"jsonrpc":"2.0","id":10,"method":"m","params":{"a":{"b":1${TAIL}}`,
    'a response and params together': `{"jsonrpc":"2.0","id":11,"result":{"a":1},"params":{"b":1${TAIL}`,
    'no id (a notification)': `{"jsonrpc":"2.0","method":"m","params":{"b":1${TAIL}`,
    'whitespace after the opening brace': `{"jsonrpc":"2.0","id":12,"method":"m","params":{ ${TAIL}`,
    'a comma already there': `{"jsonrpc":"2.0","id":13,"method":"m","params":{"a":1,${TAIL}`,
    '__proto__ as the key before params': `{"jsonrpc":"2.0","id":14,"method":"m","__proto__":{"a":1},"params":{"b":1${TAIL}`,
  };
  for (const [name, text] of Object.entries(hostile)) {
    test(`read as JSON.parse reads it: ${name}`, () => {
      parseKept(request(100, '"name":"warm"'));
      sameAsJsonParse(text);
    });
  }

  test('property: any params before a kept tail read as JSON.parse reads them', () => {
    parseKept(request(200, '"name":"warm"'));
    const member = fc
      .tuple(fc.oneof(fc.string(), fc.constantFrom('_meta', 'name', '__proto__', 'params')), fc.jsonValue())
      .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
    const junk = fc.constantFrom('', ',', '{', '}', '[', ']', '"', ':', ' ', '\\"', TAIL.slice(0, 12));
    fc.assert(
      fc.property(fc.array(member, { maxLength: 5 }), junk, fc.boolean(), (members, extra, withJunk) => {
        sameAsJsonParse(request(300, members.join(',') + (withJunk ? extra : '')));
      }),
      { numRuns: 400 },
    );
  });

  test('tails that differ on every message are never kept, and still parse right', () => {
    for (let i = 0; i < 200; i++) {
      const text = `{"jsonrpc":"2.0","id":${i},"method":"m","params":{"a":1,"_meta":{"traceparent":"00-${i}"}}}`;
      const got = parseFrame(text) as unknown as { params: { _meta: object } };
      assert.deepEqual(got, JSON.parse(text));
      assert.ok(!Object.isFrozen(got.params._meta), 'not a kept object');
    }
  });
});

describe('fixed _meta text on serialize', () => {
  const meta = fixedJson(META);

  test('fixedJson gives a deep-frozen copy whose text is kept', () => {
    assert.notEqual(meta, META);
    assert.deepEqual(meta, META);
    assert.ok(Object.isFrozen(meta));
    assert.ok(Object.isFrozen(meta['io.modelcontextprotocol/clientCapabilities'].extensions));
    assert.equal(fixedMetaText({ _meta: meta }), JSON.stringify(META));
    assert.equal(fixedMetaText({ _meta: META }), undefined);
  });

  const cases: Record<string, Record<string, unknown>> = {
    'a request': {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'e', arguments: { a: [1, {}] }, _meta: meta },
    },
    'a request whose params hold only _meta': {
      jsonrpc: '2.0',
      id: 'x',
      method: 'tools/list',
      params: { _meta: meta },
    },
    'a request whose last argument is an empty object': {
      jsonrpc: '2.0',
      id: 2,
      method: 'm',
      params: { a: {}, _meta: meta },
    },
    'a result': { jsonrpc: '2.0', id: 3, result: { resultType: 'complete', content: [], _meta: meta } },
    'a result whose _meta is not last (left to JSON.stringify)': {
      jsonrpc: '2.0',
      id: 4,
      result: { _meta: meta, content: [] },
    },
    'params not last in the message (left to JSON.stringify)': {
      jsonrpc: '2.0',
      params: { _meta: meta },
      id: 5,
      method: 'm',
    },
    'params with a toJSON': {
      jsonrpc: '2.0',
      id: 6,
      method: 'm',
      params: { a: 1, _meta: meta, toJSON: () => ({ replaced: true }) },
    },
    'frozen params': { jsonrpc: '2.0', id: 7, method: 'm', params: Object.freeze({ a: 1, _meta: meta }) },
    'a string holding a line break and quotes': {
      jsonrpc: '2.0',
      id: 8,
      method: 'm',
      params: { s: 'a\n"b"\u2028', _meta: meta },
    },
    'an undefined member': { jsonrpc: '2.0', id: 9, method: 'm', params: { a: undefined, _meta: meta } },
  };
  for (const [name, message] of Object.entries(cases)) {
    test(`writes what JSON.stringify writes: ${name}`, () => {
      const before = JSON.stringify(message);
      assert.equal(serializeMessage(message as never), before);
      // The message is as it was: `_meta` back in place.
      const inner = (message.params ?? message.result) as Record<string, unknown>;
      assert.equal(inner._meta, meta);
      assert.equal(JSON.stringify(message), before);
    });
  }

  test('property: any params ending in a fixed _meta serialize as JSON.stringify does', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 5 }), fc.integer(), (params, id) => {
        const p: Record<string, unknown> = Object.assign(Object.create(null) as object, params);
        delete p._meta;
        p._meta = meta;
        const message = { jsonrpc: '2.0', id, method: 'm', params: p };
        assert.equal(serializeMessage(message as never), JSON.stringify(message));
      }),
      { numRuns: 300 },
    );
  });
});
