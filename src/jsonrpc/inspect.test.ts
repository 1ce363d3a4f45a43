import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidMessage, inspectMessage, isValidId } from './inspect.js';
import type { JsonRpcMessage } from './message.js';
import { isErrorResponse, isNotification, isRequest, isResponse } from './message.js';
import { ErrorCode } from './error-codes.js';
import { WireError } from './wire-error.js';

function expectInvalid(
  result: JsonRpcMessage | InvalidMessage,
  expected: { id: string | number | null; respond?: boolean },
): InvalidMessage {
  assert.ok(result instanceof InvalidMessage, `expected InvalidMessage, got ${JSON.stringify(result)}`);
  assert.ok(result.error instanceof WireError);
  assert.equal(result.error.code, ErrorCode.InvalidRequest);
  assert.equal(typeof result.error.message, 'string');
  assert.ok(result.error.message.length > 0);
  assert.equal(result.id, expected.id);
  if (expected.respond !== undefined) assert.equal(result.respond, expected.respond);
  return result;
}

function expectSame(value: unknown): JsonRpcMessage {
  const result = inspectMessage(value);
  assert.ok(!(result instanceof InvalidMessage), `rejected: ${JSON.stringify(result)}`);
  assert.equal(result, value, 'a valid message must be returned as the very same object');
  return result;
}

describe('isValidId', () => {
  for (const id of ['', 'abc', '💡', 0, -1, 42, 2 ** 53 - 1, -(2 ** 53 - 1)]) {
    test(`accepts ${JSON.stringify(id)}`, () => assert.equal(isValidId(id), true));
  }
  const bad: Array<[string, unknown]> = [
    ['null', null],
    ['undefined', undefined],
    ['true', true],
    ['false', false],
    ['an object', {}],
    ['an array', []],
    ['a fraction', 1.5],
    ['2**53', 2 ** 53],
    ['-(2**53)', -(2 ** 53)],
    ['1e300', 1e300],
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['a bigint', 1n],
  ];
  for (const [name, id] of bad) {
    test(`rejects ${name}`, () => assert.equal(isValidId(id), false));
  }
});

describe('inspectMessage: valid messages are returned as the same object', () => {
  test('request with params', () => {
    const m = expectSame({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'x' } });
    assert.ok(isRequest(m));
    assert.ok(!isNotification(m));
    assert.ok(!isResponse(m));
  });
  test('request without params, string id', () => {
    const m = expectSame({ jsonrpc: '2.0', id: 'abc', method: 'ping' });
    assert.ok(isRequest(m));
  });
  test('request with empty-string id, zero id, negative id and max safe id', () => {
    for (const id of ['', 0, -7, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]) {
      expectSame({ jsonrpc: '2.0', id, method: 'ping' });
    }
  });
  test('request with empty params object', () => {
    expectSame({ jsonrpc: '2.0', id: 2, method: 'x', params: {} });
  });
  test('notification with and without params', () => {
    const a = expectSame({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const b = expectSame({ jsonrpc: '2.0', method: 'notifications/progress', params: { p: 1 } });
    assert.ok(isNotification(a));
    assert.ok(isNotification(b));
    assert.ok(!isRequest(a));
  });
  test('result response', () => {
    const m = expectSame({ jsonrpc: '2.0', id: 3, result: {} });
    assert.ok(isResponse(m));
    assert.ok(!isErrorResponse(m));
  });
  test('error response with a known code', () => {
    const m = expectSame({ jsonrpc: '2.0', id: 'q', error: { code: -32601, message: 'nope' } });
    assert.ok(isErrorResponse(m));
  });
  test('error response with null id, unknown code and data', () => {
    expectSame({ jsonrpc: '2.0', id: null, error: { code: 12345, message: '', data: [1, 2] } });
  });
});

describe('inspectMessage: non-objects and wrong jsonrpc give -32600', () => {
  const nonObjects: Array<[string, unknown]> = [
    ['null', null],
    ['a number', 1],
    ['a string', '{"jsonrpc":"2.0"}'],
    ['a boolean', true],
    ['an array', [{ jsonrpc: '2.0', id: 1, method: 'x' }]],
    ['undefined', undefined],
  ];
  for (const [name, value] of nonObjects) {
    test(`${name} is rejected with a null id`, () => {
      expectInvalid(inspectMessage(value), { id: null });
    });
  }

  const wrongVersions: Array<[string, unknown]> = [
    ['missing', undefined],
    ['"1.0"', '1.0'],
    ['the number 2', 2],
    ['null', null],
    ['"2.0 " with a space', '2.0 '],
    ['"2"', '2'],
  ];
  for (const [name, jsonrpc] of wrongVersions) {
    test(`jsonrpc ${name} on a request is rejected, echoing the valid id`, () => {
      const msg: Record<string, unknown> = { id: 7, method: 'x' };
      if (jsonrpc !== undefined) msg.jsonrpc = jsonrpc;
      expectInvalid(inspectMessage(msg), { id: 7, respond: true });
    });
  }
  test('wrong jsonrpc with an invalid id echoes null', () => {
    expectInvalid(inspectMessage({ jsonrpc: '1.0', id: 1.5, method: 'x' }), { id: null });
  });
});

describe('inspectMessage: invalid ids on requests give -32600 with a null id', () => {
  const badIds: Array<[string, unknown]> = [
    ['null', null],
    ['true', true],
    ['false', false],
    ['an object', { a: 1 }],
    ['an array', [1]],
    ['a fraction', 1.5],
    ['2**53', 2 ** 53],
    ['-(2**53)', -(2 ** 53)],
    ['1e300', 1e300],
    ['NaN', NaN],
  ];
  for (const [name, id] of badIds) {
    test(`id ${name}`, () => {
      expectInvalid(inspectMessage({ jsonrpc: '2.0', id, method: 'ping' }), {
        id: null,
        respond: true,
      });
    });
  }
});

describe('inspectMessage: method and params', () => {
  for (const [name, method] of [
    ['a number', 1],
    ['null', null],
    ['an object', {}],
    ['an array', ['x']],
    ['a boolean', true],
  ] as Array<[string, unknown]>) {
    test(`method ${name} is rejected, echoing the id, answered`, () => {
      expectInvalid(inspectMessage({ jsonrpc: '2.0', id: 'r1', method }), {
        id: 'r1',
        respond: true,
      });
    });
  }
  for (const [name, params] of [
    ['an array', [1, 2]],
    ['an empty array', []],
    ['a string', 'x'],
    ['a number', 3],
    ['null', null],
    ['a boolean', false],
  ] as Array<[string, unknown]>) {
    test(`params ${name} on a request is rejected, echoing the id, answered`, () => {
      expectInvalid(inspectMessage({ jsonrpc: '2.0', id: 9, method: 'x', params }), {
        id: 9,
        respond: true,
      });
    });
  }
  test('params that are not an object on a request with an invalid id echo null', () => {
    expectInvalid(inspectMessage({ jsonrpc: '2.0', id: null, method: 'x', params: [] }), {
      id: null,
      respond: true,
    });
  });
  test('params that are not an object on a notification are rejected', () => {
    expectInvalid(inspectMessage({ jsonrpc: '2.0', method: 'x', params: [1] }), { id: null });
  });
});

describe('inspectMessage: responses are never answered', () => {
  test('both result and error', () => {
    expectInvalid(inspectMessage({ jsonrpc: '2.0', id: 4, result: {}, error: { code: 1, message: 'm' } }), {
      id: 4,
      respond: false,
    });
  });
  test('both result and error with an invalid id echoes null', () => {
    expectInvalid(inspectMessage({ jsonrpc: '2.0', id: 4.5, result: {}, error: { code: 1, message: 'm' } }), {
      id: null,
      respond: false,
    });
  });
  for (const [name, code] of [
    ['missing', undefined],
    ['a string', '-32600'],
    ['a fraction', 1.5],
    ['null', null],
    ['NaN', NaN],
  ] as Array<[string, unknown]>) {
    test(`error code ${name}`, () => {
      const error: Record<string, unknown> = { message: 'm' };
      if (code !== undefined) error.code = code;
      expectInvalid(inspectMessage({ jsonrpc: '2.0', id: 5, error }), { id: 5, respond: false });
    });
  }
  for (const [name, message] of [
    ['missing', undefined],
    ['a number', 1],
    ['null', null],
    ['an object', {}],
  ] as Array<[string, unknown]>) {
    test(`error message ${name}`, () => {
      const error: Record<string, unknown> = { code: -32000 };
      if (message !== undefined) error.message = message;
      expectInvalid(inspectMessage({ jsonrpc: '2.0', id: 'e', error }), {
        id: 'e',
        respond: false,
      });
    });
  }
  test('error that is not an object', () => {
    for (const error of [null, 'oops', 5, [1]]) {
      expectInvalid(inspectMessage({ jsonrpc: '2.0', id: 6, error }), { id: 6, respond: false });
    }
  });
  test('error response with an invalid id', () => {
    for (const id of [true, 1.5, 2 ** 53, {}, []]) {
      expectInvalid(inspectMessage({ jsonrpc: '2.0', id, error: { code: 1, message: 'm' } }), {
        id: null,
        respond: false,
      });
    }
  });
  test('result response with an invalid id (including null)', () => {
    for (const id of [null, false, 0.25, 2 ** 53, {}, [], undefined]) {
      const msg: Record<string, unknown> = { jsonrpc: '2.0', result: {} };
      if (id !== undefined) msg.id = id;
      expectInvalid(inspectMessage(msg), { id: null, respond: false });
    }
  });
  test('result that is not an object', () => {
    for (const result of [null, 1, 'x', [], true]) {
      expectInvalid(inspectMessage({ jsonrpc: '2.0', id: 8, result }), { id: 8, respond: false });
    }
  });
  test('a response-shaped message with a wrong or missing jsonrpc is not answered', () => {
    // Spec: anything that looks like a response must be flagged respond: false, whatever
    // else is wrong with it.
    const shapes: Array<Record<string, unknown>> = [
      { jsonrpc: '1.0', id: 1, result: {} },
      { id: 1, result: {} },
      { jsonrpc: '1.0', id: 1, error: { code: -32601, message: 'm' } },
      { id: null, error: { code: -32700, message: 'Parse error' } },
    ];
    for (const shape of shapes) {
      const r = inspectMessage(shape);
      assert.ok(r instanceof InvalidMessage, JSON.stringify(shape));
      assert.equal(r.error.code, ErrorCode.InvalidRequest);
      assert.equal(r.respond, false, `answered a response-shaped message: ${JSON.stringify(shape)}`);
    }
  });
  test('an object with no method, result or error is rejected', () => {
    expectInvalid(inspectMessage({ jsonrpc: '2.0', id: 10 }), { id: 10 });
    expectInvalid(inspectMessage({ jsonrpc: '2.0' }), { id: null });
    expectInvalid(inspectMessage({}), { id: null });
  });
});
