import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ErrorCode, httpStatusForCode } from './error-codes.js';
import { WireError } from './wire-error.js';
import { LocalError } from './local-error.js';
import type { LocalErrorCode } from './local-error.js';
import { errorResponse, serializeMessage } from './serialize.js';
import { InvalidMessage } from './inspect.js';
import { parseFrame } from './parse.js';

describe('ErrorCode', () => {
  test('has the JSON-RPC and MCP values', () => {
    assert.equal(ErrorCode.ParseError, -32700);
    assert.equal(ErrorCode.InvalidRequest, -32600);
    assert.equal(ErrorCode.MethodNotFound, -32601);
    assert.equal(ErrorCode.InvalidParams, -32602);
    assert.equal(ErrorCode.InternalError, -32603);
    assert.equal(ErrorCode.ResourceNotFound, -32002);
    assert.equal(ErrorCode.HeaderMismatch, -32020);
    assert.equal(ErrorCode.MissingRequiredClientCapability, -32021);
    assert.equal(ErrorCode.UnsupportedProtocolVersion, -32022);
    assert.equal(ErrorCode.UrlElicitationRequired, -32042);
  });
});

describe('httpStatusForCode', () => {
  const table: Array<[number, number]> = [
    [-32700, 400],
    [-32600, 400],
    [-32602, 400],
    [-32020, 400],
    [-32021, 400],
    [-32022, 400],
    [-32601, 404],
    [-32603, 500],
  ];
  for (const [code, status] of table) {
    test(`${code} -> ${status}`, () => assert.equal(httpStatusForCode(code), status));
  }
  test('codes not in the table map to 200', () => {
    for (const code of [0, 1, -1, -32000, -32002, -32042, -32099, -32604, 400, 404, 500]) {
      assert.equal(httpStatusForCode(code), 200, String(code));
    }
  });
  test('property: only the eight listed codes map to something other than 200', () => {
    const listed = new Map(table);
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.integer({ min: -32800, max: -31900 })), (code) => {
        assert.equal(httpStatusForCode(code), listed.get(code) ?? 200);
      }),
      { numRuns: 300 },
    );
  });
});

describe('WireError', () => {
  test('is an Error with a numeric code, message and data', () => {
    const e = new WireError(ErrorCode.InvalidParams, 'bad', { field: 'x' });
    assert.ok(e instanceof Error);
    assert.ok(e instanceof WireError);
    assert.equal(e.name, 'WireError');
    assert.equal(e.code, -32602);
    assert.equal(typeof e.code, 'number');
    assert.equal(e.message, 'bad');
    assert.deepEqual(e.data, { field: 'x' });
    assert.ok(typeof e.stack === 'string');
  });
  test('toJSON omits data when it is undefined', () => {
    const j = new WireError(-32601, 'nope').toJSON();
    assert.deepEqual(j, { code: -32601, message: 'nope' });
    assert.ok(!('data' in j));
    assert.equal(JSON.stringify(new WireError(-32601, 'nope')), '{"code":-32601,"message":"nope"}');
    assert.ok(!('data' in new WireError(1, 'm', undefined).toJSON()));
  });
  test('toJSON keeps falsy data other than undefined', () => {
    for (const data of [null, 0, false, '', [], {}]) {
      const j = new WireError(1, 'm', data).toJSON();
      assert.ok('data' in j, JSON.stringify(data));
      assert.deepEqual(j.data, data);
    }
  });
  test('unknown codes and data round-trip through fromObject', () => {
    const obj = { code: 4242, message: 'custom', data: { nested: [1, { a: null }] } };
    const e = WireError.fromObject(obj);
    assert.ok(e instanceof WireError);
    assert.equal(e.code, 4242);
    assert.equal(e.message, 'custom');
    assert.deepEqual(e.data, obj.data);
    assert.deepEqual(e.toJSON(), obj);
  });
  test('fromObject without data gives toJSON without data', () => {
    assert.deepEqual(WireError.fromObject({ code: -1, message: '' }).toJSON(), {
      code: -1,
      message: '',
    });
  });
  test('static helpers use the right codes', () => {
    assert.equal(WireError.parseError().code, -32700);
    assert.equal(WireError.invalidRequest().code, -32600);
    assert.equal(WireError.methodNotFound('frob').code, -32601);
    assert.ok(WireError.methodNotFound('frob').message.includes('frob'));
    assert.equal(WireError.invalidParams('p').code, -32602);
    assert.deepEqual(WireError.invalidParams('p', { k: 1 }).data, { k: 1 });
    assert.equal(WireError.internal().code, -32603);
    assert.equal(WireError.parseError('custom').message, 'custom');
  });
  test('property: any integer code, message and JSON data round-trip through the wire', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.integer({ min: -32768, max: -32000 })),
        fc.string(),
        fc.option(fc.jsonValue({ maxDepth: 3 }), { nil: undefined }),
        (code, message, data) => {
          const sent = new WireError(code, message, data);
          const wire = JSON.parse(JSON.stringify(sent)) as ReturnType<WireError['toJSON']>;
          const got = WireError.fromObject(wire);
          assert.equal(got.code, code);
          assert.equal(got.message, message);
          if (data === undefined) {
            assert.ok(!('data' in wire));
            assert.equal(got.data, undefined);
          } else {
            assert.deepEqual(got.data, JSON.parse(JSON.stringify(data)));
          }
          assert.deepEqual(got.toJSON(), wire);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('LocalError', () => {
  test('has a string code, a name, and is an Error', () => {
    const e = new LocalError('RequestTimeout', 'took too long');
    assert.ok(e instanceof Error);
    assert.ok(e instanceof LocalError);
    assert.ok(!(e instanceof WireError));
    assert.equal(e.name, 'LocalError');
    assert.equal(e.code, 'RequestTimeout');
    assert.equal(typeof e.code, 'string');
    assert.equal(e.message, 'took too long');
  });
  test('keeps its cause', () => {
    const cause = new Error('socket hang up');
    const e = new LocalError('ConnectionClosed', 'closed', { cause });
    assert.equal(e.cause, cause);
    const weird = new LocalError('SpawnFailed', 'x', { cause: { errno: -2 } });
    assert.deepEqual(weird.cause, { errno: -2 });
  });
  test('has no cause when none is given', () => {
    assert.equal(new LocalError('Cancelled', 'c').cause, undefined);
    assert.ok(!('cause' in new LocalError('Cancelled', 'c')));
  });
  test('every code stays a string', () => {
    const codes: LocalErrorCode[] = [
      'NotConnected',
      'ConnectionClosed',
      'RequestTimeout',
      'Cancelled',
      'CapabilityNotSupported',
      'VersionMismatch',
      'InvalidMessage',
      'InvalidResult',
      'MessageTooLarge',
      'SpawnFailed',
      'AlreadyConnected',
      'TooManyRounds',
      'HandlerMissing',
    ];
    for (const code of codes) assert.equal(new LocalError(code, 'm').code, code);
  });
});

describe('errorResponse', () => {
  test('builds a JSON-RPC error response for an id', () => {
    assert.deepEqual(errorResponse(5, WireError.methodNotFound('x')), {
      jsonrpc: '2.0',
      id: 5,
      error: { code: -32601, message: 'Method not found: x' },
    });
  });
  test('builds one for a null id and keeps data', () => {
    const r = errorResponse(null, new WireError(-32000, 'm', { d: 1 }));
    assert.deepEqual(r, {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'm', data: { d: 1 } },
    });
  });
  test('answering an InvalidMessage gives a valid error response that is never answered back', () => {
    const bad = parseFrame('{"jsonrpc":"2.0","id":"q","method":3}');
    assert.ok(bad instanceof InvalidMessage);
    const reply = serializeMessage(errorResponse(bad.id, bad.error));
    assert.deepEqual(JSON.parse(reply), {
      jsonrpc: '2.0',
      id: 'q',
      error: { code: -32600, message: bad.error.message },
    });
    // The reply itself parses as a valid error response on the other side.
    const back = parseFrame(reply);
    assert.ok(!(back instanceof InvalidMessage));
  });
  test('a parse error reply echoes null', () => {
    const bad = parseFrame('{');
    assert.ok(bad instanceof InvalidMessage);
    const reply = errorResponse(bad.id, bad.error);
    assert.equal(reply.id, null);
    assert.equal(reply.error.code, -32700);
    assert.ok(!(parseFrame(serializeMessage(reply)) instanceof InvalidMessage));
  });
});
