import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode, WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import { deepFreeze } from '../jsonrpc/raw-json.js';
import { MetaKey } from '../protocol/meta-keys.js';
import { metaDeclaring, readModernMeta, withModernMeta } from './modern-meta.js';
import type { ModernRequestMeta } from './modern-meta.js';

const SUPPORTED = ['2026-07-28'];
const V = MetaKey.ProtocolVersion;
const CAPS = MetaKey.ClientCapabilities;
const INFO = MetaKey.ClientInfo;

function read(meta: unknown, supported: readonly string[] = SUPPORTED) {
  return readModernMeta({ _meta: meta } as Params, supported);
}

function ok(out: ModernRequestMeta | WireError | undefined): ModernRequestMeta {
  assert.ok(out !== undefined && !(out instanceof WireError), `unexpected ${String(out)}`);
  return out;
}

describe('readModernMeta', () => {
  test('a request without protocol version is legacy (undefined)', () => {
    assert.equal(readModernMeta(undefined, SUPPORTED), undefined);
    assert.equal(readModernMeta({}, SUPPORTED), undefined);
    assert.equal(read(undefined), undefined);
    assert.equal(read(null), undefined);
    assert.equal(read('2026-07-28'), undefined);
    assert.equal(read([{ [V]: '2026-07-28' }]), undefined);
    assert.equal(read({ [CAPS]: {} }), undefined);
  });

  test('an inherited protocol version does not count', () => {
    const meta = Object.create({ [V]: '2026-07-28', [CAPS]: {} }) as object;
    assert.equal(read(meta), undefined);
  });

  test('reads version, capabilities and clientInfo', () => {
    const caps = { elicitation: {} };
    const out = ok(read({ [V]: '2026-07-28', [CAPS]: caps, [INFO]: { name: 'c', version: '9' } }));
    assert.equal(out.version, '2026-07-28');
    assert.equal(out.capabilities, caps);
    assert.deepEqual(out.clientInfo, { name: 'c', version: '9' });
  });

  test('clientInfo is optional and ignored when malformed', () => {
    assert.equal(ok(read({ [V]: '2026-07-28', [CAPS]: {} })).clientInfo, undefined);
    assert.equal(ok(read({ [V]: '2026-07-28', [CAPS]: {}, [INFO]: { name: 'c' } })).clientInfo, undefined);
    assert.equal(ok(read({ [V]: '2026-07-28', [CAPS]: {}, [INFO]: 'c' })).clientInfo, undefined);
  });

  for (const version of [5, null]) {
    test(`version ${JSON.stringify(version)} (not a string) -> -32602`, () => {
      const out = read({ [V]: version, [CAPS]: {} });
      assert.ok(out instanceof WireError);
      assert.equal(out.code, ErrorCode.InvalidParams);
    });
  }

  for (const version of ['1900-01-01', '2025-06-18', '2099-01-01']) {
    test(`version ${JSON.stringify(version)} -> -32022 with supported and requested`, () => {
      const out = read({ [V]: version, [CAPS]: {} });
      assert.ok(out instanceof WireError);
      assert.equal(out.code, ErrorCode.UnsupportedProtocolVersion);
      assert.deepEqual(out.data, { supported: ['2026-07-28'], requested: version });
    });
  }

  test('supported versions are listed newest first', () => {
    const out = read({ [V]: '1900-01-01', [CAPS]: {} }, ['2026-07-28', '2027-01-01']);
    assert.ok(out instanceof WireError);
    assert.deepEqual((out.data as { supported: string[] }).supported, ['2027-01-01', '2026-07-28']);
  });

  test('the version is checked before the capabilities', () => {
    const out = read({ [V]: '1900-01-01' });
    assert.ok(out instanceof WireError);
    assert.equal(out.code, ErrorCode.UnsupportedProtocolVersion);
  });

  for (const caps of [undefined, null, [], 'all', 1]) {
    test(`clientCapabilities ${JSON.stringify(caps)} -> -32602`, () => {
      const meta: Record<string, unknown> = { [V]: '2026-07-28' };
      if (caps !== undefined) meta[CAPS] = caps;
      const out = read(meta);
      assert.ok(out instanceof WireError);
      assert.equal(out.code, ErrorCode.InvalidParams);
      assert.match(out.message, /clientCapabilities/);
    });
  }
});

describe('withModernMeta', () => {
  const base = deepFreeze({
    [V]: '2026-07-28',
    [CAPS]: { roots: {} },
    [INFO]: { name: 'c', version: '1' },
  });

  test('no params: only _meta, which is the shared base object', () => {
    const out = withModernMeta(undefined, base);
    assert.deepEqual(Object.keys(out), ['_meta']);
    assert.equal(out._meta, base);
  });

  test('params without _meta: a copy with the base as _meta', () => {
    const params = deepFreeze({ name: 'tool', arguments: { a: 1 } });
    const out = withModernMeta(params, base);
    assert.notEqual(out, params);
    assert.deepEqual(out, { name: 'tool', arguments: { a: 1 }, _meta: base });
    assert.equal(out.arguments, params.arguments);
    assert.equal(Object.hasOwn(params, '_meta'), false);
  });

  test('params with _meta: merged into a new object, the caller objects untouched', () => {
    const params = deepFreeze({ x: 1, _meta: { progressToken: 't', [V]: '1999-01-01' } });
    const out = withModernMeta(params, base);
    assert.deepEqual(out._meta, { progressToken: 't', ...base });
    assert.notEqual(out._meta, params._meta);
    assert.deepEqual(params, { x: 1, _meta: { progressToken: 't', [V]: '1999-01-01' } });
  });

  test('a _meta that is not an object is replaced by the base', () => {
    const out = withModernMeta({ _meta: 'junk' }, base);
    assert.equal(out._meta, base);
  });

  test('a _meta of declared capabilities only becomes the whole one, from metaDeclaring', () => {
    const caps = deepFreeze({ extensions: { 'io.example/x': {} } });
    const out = withModernMeta({ name: 't', _meta: { [CAPS]: caps } }, base);
    assert.deepEqual(out, { name: 't', _meta: { ...base, [CAPS]: caps } });
    assert.equal(out._meta, metaDeclaring(base, caps));
    assert.ok(Object.isFrozen(out._meta));
  });

  test('params already carrying the whole _meta pass as they are, and only that object does', () => {
    const caps = deepFreeze({ extensions: { 'io.example/y': {} } });
    const whole = metaDeclaring(base, caps);
    const params = { name: 't', _meta: whole };
    assert.equal(withModernMeta(params, base), params);
    // The same content in another object is merged as any other _meta: only our own copy is trusted.
    const lookalike = { name: 't', _meta: { ...whole, [INFO]: { name: 'spoof', version: '0' } } };
    const merged = withModernMeta(lookalike, base);
    assert.notEqual(merged, lookalike);
    assert.deepEqual(merged._meta, whole);
    // Another request declared other capabilities since: the first is merged again, to the same content.
    metaDeclaring(base, deepFreeze({ roots: { listChanged: true } }));
    const again = withModernMeta(params, base);
    assert.notEqual(again, params);
    assert.deepEqual(again._meta, whole);
  });
});
