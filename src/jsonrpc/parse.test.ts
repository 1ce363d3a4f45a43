import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ParsedBatch, inspectValue, parseFrame, parseFrameBytes } from './parse.js';
import type { ParsedFrame } from './parse.js';
import { InvalidMessage, inspectMessage } from './inspect.js';
import type { JsonRpcMessage, RequestId } from './message.js';
import { ErrorCode } from './error-codes.js';
import { serializeMessage } from './serialize.js';

const enc = new TextEncoder();

function asInvalid(r: ParsedFrame | JsonRpcMessage, code: number, id: RequestId | null = null) {
  assert.ok(r instanceof InvalidMessage, `expected InvalidMessage, got ${JSON.stringify(r)}`);
  assert.equal(r.error.code, code);
  assert.equal(r.id, id);
  return r;
}

function asMessage(r: ParsedFrame): JsonRpcMessage {
  assert.ok(!(r instanceof InvalidMessage), `rejected: ${JSON.stringify(r)}`);
  assert.ok(!(r instanceof ParsedBatch), 'unexpected batch');
  return r;
}

function asBatch(r: ParsedFrame): ParsedBatch {
  assert.ok(r instanceof ParsedBatch, `expected ParsedBatch, got ${JSON.stringify(r)}`);
  return r;
}

// ---------------------------------------------------------------------------------------
// An independent reading of the envelope rules, used as the oracle by the properties.

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const validId = (id: unknown): id is RequestId =>
  typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
const has = (o: Obj, k: string) => Object.prototype.hasOwnProperty.call(o, k);

function oracle(v: unknown): { valid: boolean; id: RequestId | null } {
  if (!isObj(v)) return { valid: false, id: null };
  const id = has(v, 'id') && validId(v.id) ? v.id : null;
  const no = { valid: false, id };
  const yes = { valid: true, id };
  if (!has(v, 'jsonrpc') || v.jsonrpc !== '2.0') return no;
  if (has(v, 'method')) {
    if (typeof v.method !== 'string') return no;
    if (has(v, 'params') && !isObj(v.params)) return no;
    if (has(v, 'id') && !validId(v.id)) return no;
    return yes;
  }
  if (has(v, 'result') && has(v, 'error')) return no;
  if (has(v, 'result')) return validId(v.id) && isObj(v.result) ? yes : no;
  if (has(v, 'error')) {
    if (!has(v, 'id') || (v.id !== null && !validId(v.id))) return no;
    const e = v.error;
    if (!isObj(e) || !Number.isInteger(e.code) || typeof e.message !== 'string') return no;
    return yes;
  }
  return no;
}

function checkItem(value: unknown, r: JsonRpcMessage | InvalidMessage | ParsedBatch) {
  const want = oracle(value);
  if (want.valid) {
    assert.deepEqual(asMessage(r), value);
  } else {
    asInvalid(r, ErrorCode.InvalidRequest, want.id);
  }
}

/** Checks parseFrame(text) against the oracle; text must be valid JSON. */
function checkFrame(text: string) {
  const value: unknown = JSON.parse(text);
  const r = parseFrame(text);
  if (Array.isArray(value)) {
    if (value.length === 0) {
      asInvalid(r, ErrorCode.InvalidRequest, null);
    } else {
      const batch = asBatch(r);
      assert.equal(batch.items.length, value.length);
      value.forEach((item, i) => checkItem(item, batch.items[i] as JsonRpcMessage | InvalidMessage));
    }
  } else {
    checkItem(value, r);
  }
}

// Structured messages: every envelope field is present or absent and valid or not.
const fraction = fc.integer({ min: -1e6, max: 1e6 }).map((n) => n + 0.5);
const idArb = fc.oneof(
  { arbitrary: fc.string({ maxLength: 8 }), weight: 3 },
  { arbitrary: fc.maxSafeInteger(), weight: 3 },
  fc.constantFrom<unknown>(null, true, false, {}, [], [1], { id: 1 }, 2 ** 53, -(2 ** 53), 1e300),
  fraction,
);
const methodArb = fc.oneof(
  { arbitrary: fc.string({ maxLength: 12 }), weight: 4 },
  fc.constantFrom<unknown>(null, 1, true, {}, ['m']),
);
const objArb = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), {
  maxKeys: 4,
});
const nonObjArb = fc.constantFrom<unknown>(null, [], [1], 'x', 0, true);
const paramsArb = fc.oneof({ arbitrary: objArb, weight: 3 }, nonObjArb);
const errorArb = fc.oneof(
  {
    arbitrary: fc.record(
      {
        code: fc.oneof(
          { arbitrary: fc.integer(), weight: 4 },
          fraction,
          fc.constantFrom<unknown>('1', null, true),
        ),
        message: fc.oneof(
          { arbitrary: fc.string({ maxLength: 8 }), weight: 4 },
          fc.constantFrom<unknown>(1, null, {}),
        ),
        data: fc.jsonValue({ maxDepth: 2 }),
      },
      { requiredKeys: [] },
    ),
    weight: 4,
  },
  nonObjArb,
);
const envelopeArb = fc.record(
  {
    jsonrpc: fc.oneof(
      { arbitrary: fc.constant<unknown>('2.0'), weight: 6 },
      fc.constantFrom<unknown>('1.0', 2, null, '', '2.0 '),
    ),
    id: idArb,
    method: methodArb,
    params: paramsArb,
    result: fc.oneof({ arbitrary: objArb, weight: 3 }, nonObjArb),
    error: errorArb,
  },
  { requiredKeys: [] },
);
const frameValueArb = fc.oneof(
  { arbitrary: envelopeArb, weight: 6 },
  fc.array(envelopeArb, { maxLength: 4 }),
  fc.jsonValue({ maxDepth: 3 }),
);

// ---------------------------------------------------------------------------------------

describe('parseFrame: invalid JSON is -32700 with id null', () => {
  const cases: Array<[string, string]> = [
    ['empty string', ''],
    ['whitespace', '  \t '],
    ['unterminated object', '{"jsonrpc":"2.0","id":1,"method":"x"'],
    ['lone closing brace', '}'],
    ['trailing comma in object', '{"jsonrpc":"2.0","id":1,"method":"x",}'],
    ['trailing comma in array', '[1,]'],
    ['single quotes', "{'jsonrpc':'2.0'}"],
    ['NaN', 'NaN'],
    ['undefined', 'undefined'],
    ['trailing garbage', '{"jsonrpc":"2.0","id":1,"method":"x"}x'],
    ['two values', '{} {}'],
    ['leading zero', '01'],
    ['unterminated string', '"abc'],
    ['raw control character in a string', '{"jsonrpc":"2.0","id":1,"method":"a\u0001b"}'],
    ['raw newline in a string', '{"jsonrpc":"2.0","id":1,"method":"a\nb"}'],
    ['bad escape', '{"method":"\\x41"}'],
    ['comment', '{"jsonrpc":"2.0"} // hi'],
  ];
  for (const [name, text] of cases) {
    test(name, () => {
      const r = asInvalid(parseFrame(text), ErrorCode.ParseError, null);
      assert.equal(r.respond, true);
    });
  }
  test('an id that could be read from the broken text is still not echoed', () => {
    asInvalid(parseFrame('{"jsonrpc":"2.0","id":42,"method":"x",'), ErrorCode.ParseError, null);
  });
});

describe('parseFrameBytes', () => {
  const badUtf8: Array<[string, number[]]> = [
    ['0xFF', [0xff]],
    ['0xFE', [0xfe]],
    ['lone continuation byte', [0x80]],
    ['truncated two-byte sequence', [0xc3]],
    ['truncated four-byte sequence', [0xf0, 0x9f, 0x98]],
    ['overlong "/"', [0xc0, 0xaf]],
    ['overlong NUL', [0xe0, 0x80, 0x80]],
    ['UTF-16 surrogate half', [0xed, 0xa0, 0x80]],
    ['above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ];
  for (const [name, bytes] of badUtf8) {
    test(`invalid UTF-8 (${name}) inside a valid message is -32700 with id null`, () => {
      const head = enc.encode('{"jsonrpc":"2.0","id":1,"method":"a');
      const tail = enc.encode('b"}');
      const frame = new Uint8Array([...head, ...bytes, ...tail]);
      asInvalid(parseFrameBytes(frame), ErrorCode.ParseError, null);
      asInvalid(parseFrameBytes(new Uint8Array(bytes)), ErrorCode.ParseError, null);
    });
  }
  test('valid multi-byte UTF-8 is decoded exactly', () => {
    const method = 'é中😀\u2028';
    const r = asMessage(parseFrameBytes(enc.encode(`{"jsonrpc":"2.0","id":"ü","method":"${method}"}`)));
    assert.deepEqual(r, { jsonrpc: '2.0', id: 'ü', method });
  });
  test('invalid JSON in valid UTF-8 is -32700', () => {
    asInvalid(parseFrameBytes(enc.encode('{"jsonrpc":')), ErrorCode.ParseError, null);
    asInvalid(parseFrameBytes(new Uint8Array(0)), ErrorCode.ParseError, null);
  });
  test('a decode failure does not poison later frames', () => {
    asInvalid(parseFrameBytes(new Uint8Array([0x7b, 0xe4, 0xb8])), ErrorCode.ParseError, null);
    const r = asMessage(parseFrameBytes(enc.encode('{"jsonrpc":"2.0","method":"中"}')));
    assert.deepEqual(r, { jsonrpc: '2.0', method: '中' });
  });
  test('valid JSON that is not a message is -32600', () => {
    asInvalid(parseFrameBytes(enc.encode('{"id":3}')), ErrorCode.InvalidRequest, 3);
  });
});

describe('parseFrame: JSON values that are not messages are -32600', () => {
  const cases: Array<[string, string, RequestId | null]> = [
    ['a number', '1', null],
    ['a string', '"hello"', null],
    ['null', 'null', null],
    ['true', 'true', null],
    ['wrong jsonrpc', '{"jsonrpc":"1.0","id":1,"method":"x"}', 1],
    ['null id', '{"jsonrpc":"2.0","id":null,"method":"x"}', null],
    ['boolean id', '{"jsonrpc":"2.0","id":true,"method":"x"}', null],
    ['object id', '{"jsonrpc":"2.0","id":{},"method":"x"}', null],
    ['array id', '{"jsonrpc":"2.0","id":[1],"method":"x"}', null],
    ['fractional id', '{"jsonrpc":"2.0","id":1.5,"method":"x"}', null],
    ['id 2**53', '{"jsonrpc":"2.0","id":9007199254740992,"method":"x"}', null],
    ['id -(2**53)', '{"jsonrpc":"2.0","id":-9007199254740992,"method":"x"}', null],
    ['id 1e400 (Infinity)', '{"jsonrpc":"2.0","id":1e400,"method":"x"}', null],
    ['method not a string', '{"jsonrpc":"2.0","id":"a","method":7}', 'a'],
    ['params an array', '{"jsonrpc":"2.0","id":2,"method":"x","params":[1]}', 2],
    ['params a string', '{"jsonrpc":"2.0","id":2,"method":"x","params":"p"}', 2],
    ['both result and error', '{"jsonrpc":"2.0","id":3,"result":{},"error":{"code":1,"message":"m"}}', 3],
    ['error without code', '{"jsonrpc":"2.0","id":3,"error":{"message":"m"}}', 3],
    ['error with fractional code', '{"jsonrpc":"2.0","id":3,"error":{"code":1.5,"message":"m"}}', 3],
    ['error without message', '{"jsonrpc":"2.0","id":3,"error":{"code":1}}', 3],
    ['error with numeric message', '{"jsonrpc":"2.0","id":3,"error":{"code":1,"message":2}}', 3],
  ];
  for (const [name, text, id] of cases) {
    test(name, () => {
      asInvalid(parseFrame(text), ErrorCode.InvalidRequest, id);
    });
  }
  test('max safe integer id is accepted, and an integral float like 1.0 counts as an integer', () => {
    const a = asMessage(parseFrame('{"jsonrpc":"2.0","id":9007199254740991,"method":"x"}'));
    assert.equal((a as { id: number }).id, 2 ** 53 - 1);
    asMessage(parseFrame('{"jsonrpc":"2.0","id":1.0,"method":"x"}'));
  });
  test('requests are answered, responses are not', () => {
    assert.equal(asInvalid(parseFrame('{"jsonrpc":"2.0","id":1,"method":1}'), -32600, 1).respond, true);
    assert.equal(asInvalid(parseFrame('{"jsonrpc":"2.0","id":1,"result":[]}'), -32600, 1).respond, false);
    assert.equal(
      asInvalid(parseFrame('{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}'), -32600, 1).respond,
      false,
    );
  });
});

describe('valid messages are returned as the very same object', () => {
  test('inspectValue returns its argument for each kind of message', () => {
    const msgs: unknown[] = [
      { jsonrpc: '2.0', id: 1, method: 'x', params: { a: [1] } },
      { jsonrpc: '2.0', method: 'n' },
      { jsonrpc: '2.0', id: 'r', result: { ok: true } },
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
    ];
    for (const m of msgs) {
      assert.equal(inspectValue(m), m);
      assert.equal(inspectMessage(m), m);
    }
  });
  test('parseFrame returns the parsed value unchanged', () => {
    const text = '{"jsonrpc":"2.0","id":1,"method":"x","params":{"b":[1,{"c":null}],"extra":"é"}}';
    assert.deepEqual(asMessage(parseFrame(text)), JSON.parse(text));
  });
});

describe('batches', () => {
  test('an empty array is -32600 with id null, answered', () => {
    const r = asInvalid(parseFrame('[]'), ErrorCode.InvalidRequest, null);
    assert.equal(r.respond, true);
    asInvalid(inspectValue([]), ErrorCode.InvalidRequest, null);
  });
  test('an array gives a ParsedBatch of inspected items, in order', () => {
    const text =
      '[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"n"},1,' +
      '{"jsonrpc":"2.0","id":1.5,"method":"b"},{"jsonrpc":"2.0","id":"r","result":{}},' +
      '{"jsonrpc":"2.0","id":7,"method":"c","params":[]}]';
    const batch = asBatch(parseFrame(text));
    assert.equal(batch.items.length, 6);
    assert.deepEqual(batch.items[0], { jsonrpc: '2.0', id: 1, method: 'a' });
    assert.deepEqual(batch.items[1], { jsonrpc: '2.0', method: 'n' });
    asInvalid(batch.items[2] as InvalidMessage, ErrorCode.InvalidRequest, null);
    asInvalid(batch.items[3] as InvalidMessage, ErrorCode.InvalidRequest, null);
    assert.deepEqual(batch.items[4], { jsonrpc: '2.0', id: 'r', result: {} });
    asInvalid(batch.items[5] as InvalidMessage, ErrorCode.InvalidRequest, 7);
  });
  test('batch items are the very same objects', () => {
    const a = { jsonrpc: '2.0', id: 1, method: 'a' };
    const b = { jsonrpc: '2.0', method: 'b' };
    const batch = asBatch(inspectValue([a, 'junk', b]));
    assert.equal(batch.items[0], a);
    assert.ok(batch.items[1] instanceof InvalidMessage);
    assert.equal(batch.items[2], b);
  });
  test('a nested array is not a message', () => {
    const batch = asBatch(parseFrame('[[{"jsonrpc":"2.0","id":1,"method":"a"}]]'));
    assert.equal(batch.items.length, 1);
    asInvalid(batch.items[0] as InvalidMessage, ErrorCode.InvalidRequest, null);
    asInvalid(asBatch(parseFrame('[[]]')).items[0] as InvalidMessage, -32600, null);
  });
  test('a batch of responses is not answered item by item', () => {
    const batch = asBatch(parseFrame('[{"jsonrpc":"2.0","id":1,"result":5}]'));
    const item = asInvalid(batch.items[0] as InvalidMessage, ErrorCode.InvalidRequest, 1);
    assert.equal(item.respond, false);
  });
});

// ---------------------------------------------------------------------------------------
// Prototype pollution

function prototypeSnapshot(): Map<string, unknown> {
  const snap = new Map<string, unknown>();
  const protos: Array<[string, object]> = [
    ['Object', Object.prototype],
    ['Array', Array.prototype],
    ['Function', Function.prototype],
    ['String', String.prototype],
  ];
  for (const [name, proto] of protos) {
    for (const key of Reflect.ownKeys(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, key);
      snap.set(`${name}.${String(key)}`, d && ('value' in d ? d.value : d.get));
    }
  }
  return snap;
}

const cleanSnapshot = prototypeSnapshot();

function assertNotPolluted() {
  const probe = {} as Record<string, unknown>;
  assert.equal(probe.polluted, undefined);
  assert.equal(probe.constructor, Object);
  assert.equal(Object.getPrototypeOf(probe), Object.prototype);
  assert.equal(Object.getPrototypeOf([]), Array.prototype);
  const now = prototypeSnapshot();
  assert.deepEqual([...now.keys()].sort(), [...cleanSnapshot.keys()].sort());
  for (const [k, v] of cleanSnapshot) assert.equal(now.get(k), v, `${k} changed`);
}

/** Every object and array reachable from a parse result has the ordinary prototype. */
function assertOrdinary(v: unknown) {
  if (Array.isArray(v)) {
    assert.equal(Object.getPrototypeOf(v), Array.prototype);
    v.forEach(assertOrdinary);
  } else if (typeof v === 'object' && v !== null) {
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
    for (const k of Object.keys(v)) assertOrdinary((v as Obj)[k]);
  }
}

function assertOrdinaryResult(r: ParsedFrame) {
  if (r instanceof ParsedBatch) {
    for (const item of r.items) if (!(item instanceof InvalidMessage)) assertOrdinary(item);
  } else if (!(r instanceof InvalidMessage)) {
    assertOrdinary(r);
  }
}

describe('hostile keys pollute nothing', () => {
  test('__proto__ in params (the spec example)', () => {
    const r = asMessage(
      parseFrame('{"jsonrpc":"2.0","id":1,"method":"x","params":{"__proto__":{"polluted":true}}}'),
    );
    const params = (r as { params: Obj }).params;
    assert.ok(Object.prototype.hasOwnProperty.call(params, '__proto__'), 'kept as an own key');
    assert.equal(Object.getPrototypeOf(params), Object.prototype);
    assert.equal(params.polluted, undefined);
    assertNotPolluted();
  });

  const frames: Array<[string, string]> = [
    ['top-level __proto__', '{"__proto__":{"polluted":true},"jsonrpc":"2.0","id":1,"method":"x"}'],
    [
      'constructor.prototype in params',
      '{"jsonrpc":"2.0","id":1,"method":"x","params":{"constructor":{"prototype":{"polluted":true}}}}',
    ],
    ['prototype key', '{"jsonrpc":"2.0","method":"x","params":{"prototype":{"polluted":true}}}'],
    [
      'deeply nested __proto__',
      '{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":[{"b":{"__proto__":{"polluted":true}}}]}}',
    ],
    ['__proto__ in result', '{"jsonrpc":"2.0","id":1,"result":{"__proto__":{"polluted":true}}}'],
    [
      '__proto__ in error data',
      '{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m","data":{"__proto__":{"polluted":true}}}}',
    ],
    [
      '__proto__ as the error object key',
      '{"jsonrpc":"2.0","id":1,"error":{"__proto__":{"code":1,"message":"m"}}}',
    ],
    [
      '__proto__ in a batch item',
      '[{"__proto__":{"polluted":true}},{"jsonrpc":"2.0","method":"x","params":{"__proto__":{"polluted":true}}}]',
    ],
    [
      '__proto__ as the params value key twice',
      '{"jsonrpc":"2.0","id":1,"method":"x","params":{"__proto__":1,"__proto__":{"polluted":true}}}',
    ],
    [
      'hostile strings as method and id',
      '{"jsonrpc":"2.0","id":"__proto__","method":"constructor","params":{}}',
    ],
    ['invalid frame with __proto__', '{"__proto__":{"polluted":true},"jsonrpc":"1.0","id":1}'],
  ];
  for (const [name, text] of frames) {
    test(name, () => {
      const r = parseFrame(text);
      assertOrdinaryResult(r);
      assertNotPolluted();
      const viaBytes = parseFrameBytes(enc.encode(text));
      assertOrdinaryResult(viaBytes);
      assertNotPolluted();
    });
  }

  test('hostile keys do not supply envelope fields', () => {
    // JSON.parse keeps __proto__ as an own key: the envelope must not be read through it.
    asInvalid(parseFrame('{"__proto__":{"jsonrpc":"2.0","id":1,"method":"x"}}'), ErrorCode.InvalidRequest);
    asInvalid(parseFrame('{"jsonrpc":"2.0","id":1,"__proto__":{"method":"x"}}'), ErrorCode.InvalidRequest, 1);
    asInvalid(
      parseFrame('{"jsonrpc":"2.0","id":1,"error":{"__proto__":{"code":1,"message":"m"}}}'),
      ErrorCode.InvalidRequest,
      1,
    );
  });

  test('property: hostile keys anywhere in any frame pollute nothing', () => {
    const key = fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      'polluted',
      'jsonrpc',
      'id',
      'method',
      'params',
      'result',
      'error',
      'code',
      'message',
      'toString',
      'hasOwnProperty',
    );
    const leaf = fc.oneof(
      fc.constant('{"polluted":true}'),
      fc.constant('{"__proto__":{"polluted":true}}'),
      fc.constantFrom('null', 'true', '"2.0"', '"x"', '1', '1.5', '[]', '{}'),
    );
    const { value } = fc.letrec<{ value: string; object: string; array: string }>((tie) => ({
      value: fc.oneof({ maxDepth: 4, depthSize: 'small' }, leaf, tie('object'), tie('array')),
      object: fc
        .array(fc.tuple(key, tie('value')), { maxLength: 5 })
        .map((es) => `{${es.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
      array: fc.array(tie('value'), { maxLength: 3 }).map((a) => `[${a.join(',')}]`),
    }));
    const frame = fc.oneof(
      value,
      value.map((p) => `{"jsonrpc":"2.0","id":1,"method":"x","params":${p}}`),
      value.map((p) => `{"jsonrpc":"2.0","id":1,"result":${p}}`),
      value.map((p) => `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m","data":${p}}}`),
      fc.array(value, { minLength: 1, maxLength: 3 }).map((a) => `[${a.join(',')}]`),
    );
    fc.assert(
      fc.property(frame, (text) => {
        const r = parseFrame(text);
        checkFrame(text);
        assertOrdinaryResult(r);
        assertNotPolluted();
      }),
      { numRuns: 300 },
    );
  });
});

describe('serializeMessage', () => {
  test('round-trips through parseFrame and never holds a raw line break', () => {
    const m: JsonRpcMessage = {
      jsonrpc: '2.0',
      id: 1,
      method: 'x',
      params: { text: 'a\nb\r\nc\u2028d\u2029e\u0000', emoji: '😀' },
    };
    const s = serializeMessage(m);
    assert.ok(!/[\n\r]/.test(s));
    assert.deepEqual(parseFrame(s), m);
  });
  test('serializes a batch as a JSON array', () => {
    const ms: JsonRpcMessage[] = [
      { jsonrpc: '2.0', method: 'a' },
      { jsonrpc: '2.0', id: 2, result: {} },
    ];
    const batch = asBatch(parseFrame(serializeMessage(ms)));
    assert.deepEqual(batch.items, ms);
  });
});

// ---------------------------------------------------------------------------------------
// Properties

describe('properties', () => {
  test('(a) any JSON value: never throws, and gives the message or the right -32600', () => {
    fc.assert(
      fc.property(frameValueArb, (v) => {
        checkFrame(JSON.stringify(v));
      }),
      { numRuns: 500 },
    );
  });

  test('(a) arbitrary JSON from fc.jsonValue', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        checkFrame(JSON.stringify(v));
      }),
      { numRuns: 300 },
    );
  });

  test('(a) response-shaped frames are never answered; requests always are', () => {
    fc.assert(
      fc.property(envelopeArb, (v) => {
        const r = parseFrame(JSON.stringify(v));
        if (!(r instanceof InvalidMessage)) return;
        const o = v as Obj;
        if (!has(o, 'method') && (has(o, 'result') || has(o, 'error'))) {
          assert.equal(r.respond, false, `answered ${JSON.stringify(v)}`);
        }
        if (typeof o.method === 'string' && validId(o.id)) {
          assert.equal(r.respond, true, `did not answer ${JSON.stringify(v)}`);
        }
      }),
      { numRuns: 500 },
    );
  });

  test('(a) valid messages survive serializeMessage and parseFrame unchanged', () => {
    fc.assert(
      fc.property(envelopeArb, (v) => {
        if (!oracle(v).valid) return;
        const s = serializeMessage(v as JsonRpcMessage);
        assert.ok(!s.includes('\n') && !s.includes('\r'));
        assert.deepEqual(parseFrame(s), JSON.parse(JSON.stringify(v)));
      }),
      { numRuns: 300 },
    );
  });

  function checkAnyText(text: string) {
    let r: ParsedFrame | undefined;
    assert.doesNotThrow(() => {
      r = parseFrame(text);
    });
    assert.ok(r !== undefined && typeof r === 'object' && r !== null);
    let json = true;
    try {
      JSON.parse(text);
    } catch {
      json = false;
    }
    if (json) checkFrame(text);
    else asInvalid(r, ErrorCode.ParseError, null);
  }

  test('(b) arbitrary strings never throw', () => {
    const utf16 = fc.string({
      unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
      maxLength: 40,
    });
    // Any code point (fc's 'binary' unit builds a large table on first use, which is slow).
    const codePoints = fc.string({
      unit: fc
        .integer({ min: 0, max: 0x10ffff })
        .filter((c) => c < 0xd800 || c > 0xdfff)
        .map((c) => String.fromCodePoint(c)),
      maxLength: 40,
    });
    fc.assert(fc.property(fc.oneof(fc.string(), codePoints, utf16), checkAnyText), {
      numRuns: 400,
    });
  });

  test('(b) JSON-like token soup never throws and is classified correctly', () => {
    const token = fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      ' ',
      '"jsonrpc"',
      '"2.0"',
      '"id"',
      '"method"',
      '"params"',
      '"result"',
      '"error"',
      '"code"',
      '"message"',
      '"__proto__"',
      '1',
      '1.5',
      '9007199254740992',
      'null',
      'true',
      '"x"',
    );
    fc.assert(
      fc.property(
        fc.array(token, { maxLength: 30 }).map((t) => t.join('')),
        checkAnyText,
      ),
      { numRuns: 500 },
    );
  });

  test('(b) arbitrary bytes never throw; invalid UTF-8 is -32700', () => {
    const strict = new TextDecoder('utf-8', { fatal: true });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 48 }),
          fc.tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 4 })).map(([at, junk]) => {
            const good = enc.encode('{"jsonrpc":"2.0","id":1,"method":"é中"}');
            const i = at % (good.length + 1);
            return new Uint8Array([...good.subarray(0, i), ...junk, ...good.subarray(i)]);
          }),
        ),
        (bytes) => {
          let r: ParsedFrame | undefined;
          assert.doesNotThrow(() => {
            r = parseFrameBytes(bytes);
          });
          let text: string | undefined;
          try {
            text = strict.decode(bytes);
          } catch {
            text = undefined;
          }
          if (text === undefined) asInvalid(r as ParsedFrame, ErrorCode.ParseError, null);
          else assert.deepEqual(r, parseFrame(text));
        },
      ),
      { numRuns: 400 },
    );
  });
});
