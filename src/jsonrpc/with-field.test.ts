import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { merged, withField } from './with-field.js';

describe('withField', () => {
  test('gives what the spread gives, for any JSON object and key', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.string(),
        fc.jsonValue(),
        (obj, key, value) => {
          const before = JSON.stringify(obj);
          const out = withField(obj, key, value) as Record<string, unknown>;
          const spread = { ...obj, [key]: value };
          assert.deepEqual(Object.keys(out), Object.keys(spread));
          assert.equal(JSON.stringify(out), JSON.stringify(spread));
          assert.equal(Object.getPrototypeOf(out), Object.prototype);
          assert.equal(JSON.stringify(obj), before, 'the source is untouched');
        },
      ),
    );
  });

  test('a parsed __proto__ key stays an own key and never becomes the prototype', () => {
    const hostile = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    const out = withField(hostile, '_meta', {}) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.equal((out as { polluted?: unknown }).polluted, undefined);
    assert.deepEqual(Object.keys(out), ['__proto__', 'a', '_meta']);
    const keyed = withField({ a: 1 }, '__proto__', { polluted: true }) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(keyed), Object.prototype);
    assert.ok(Object.hasOwn(keyed, '__proto__'));
  });

  test('keeps symbol keys (a result holding raw JSON is marked by one)', () => {
    const mark = Symbol('mark');
    const out = withField({ [mark]: true, a: 1 }, 'b', 2);
    assert.equal(out[mark], true);
  });
});

describe('merged', () => {
  test('gives what { ...a, ...b } gives, a parsed __proto__ included', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.dictionary(fc.string(), fc.jsonValue()),
        (a, b) => {
          assert.equal(JSON.stringify(merged(a, b)), JSON.stringify({ ...a, ...b }));
        },
      ),
    );
    const out = merged(JSON.parse('{"__proto__":{"x":1}}') as object, { y: 2 });
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.deepEqual(Object.keys(out), ['__proto__', 'y']);
  });
});
