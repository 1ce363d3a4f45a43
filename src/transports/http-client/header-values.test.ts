import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { base64Utf8, encodeHeaderValue, isPlainHeaderValue } from './header-values.js';

const decode = (v: string): string => {
  const m = /^=\?base64\?(.*)\?=$/.exec(v);
  return m ? new TextDecoder().decode(Uint8Array.from(atob(m[1]!), (c) => c.charCodeAt(0))) : v;
};

describe('header value encoding (2026-07-28 Value Encoding)', () => {
  test('the examples of the specification', () => {
    assert.equal(encodeHeaderValue('us-west1'), 'us-west1');
    assert.equal(encodeHeaderValue('Hello, 世界'), '=?base64?SGVsbG8sIOS4lueVjA==?=');
    assert.equal(encodeHeaderValue(' padded '), '=?base64?IHBhZGRlZCA=?=');
    assert.equal(encodeHeaderValue('line1\nline2'), '=?base64?bGluZTEKbGluZTI=?=');
    assert.equal(encodeHeaderValue('=?base64?literal?='), '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=');
  });

  test('tabs, DEL and other controls are encoded; inner spaces are not', () => {
    assert.equal(isPlainHeaderValue('a b'), true);
    assert.equal(isPlainHeaderValue('a\tb'), false);
    assert.equal(isPlainHeaderValue('a\x7fb'), false);
    assert.equal(isPlainHeaderValue('\x00'), false);
    assert.equal(isPlainHeaderValue(''), true);
    assert.equal(base64Utf8('😀'), '8J+YgA==');
  });

  test('property: the result is a valid header value and decodes back to the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 64 }), (s) => {
        const out = encodeHeaderValue(s);
        assert.ok(/^[\x20-\x7e]*$/.test(out), 'printable ASCII only');
        assert.doesNotThrow(() => new Headers({ 'mcp-name': out }));
        // Headers trim surrounding spaces, so a plain value never has any.
        assert.equal(new Headers({ 'mcp-name': out }).get('mcp-name'), out);
        const lone = /[\ud800-\udfff]/.test(s.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''));
        if (!lone) assert.equal(decode(out), s);
      }),
      { numRuns: 500 },
    );
  });
});
