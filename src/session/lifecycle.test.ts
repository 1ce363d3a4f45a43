import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode, WireError } from '../jsonrpc/index.js';
import { ALL_VERSIONS, LEGACY_VERSIONS } from '../protocol/versions.js';
import { acceptsServerVersion, modernOnly, negotiateInitialize } from './lifecycle.js';
import type { InitializeOutcome } from './lifecycle.js';

const clientInfo = { name: 'c', version: '1' };
const good = (protocolVersion: unknown, extra: Record<string, unknown> = {}) => ({
  protocolVersion,
  capabilities: { sampling: {} },
  clientInfo,
  ...extra,
});

function ok(out: InitializeOutcome | WireError): InitializeOutcome {
  assert.ok(
    !(out instanceof WireError),
    `unexpected error: ${String(out instanceof WireError && out.message)}`,
  );
  return out;
}

function err(out: InitializeOutcome | WireError, code: number): WireError {
  assert.ok(out instanceof WireError, `expected a WireError, got ${JSON.stringify(out)}`);
  assert.equal(out.code, code);
  return out;
}

describe('negotiateInitialize', () => {
  for (const v of LEGACY_VERSIONS) {
    test(`a client offering ${v} gets ${v}`, () => {
      const out = ok(negotiateInitialize(good(v), ALL_VERSIONS));
      assert.equal(out.version, v);
      assert.deepEqual(out.capabilities, { sampling: {} });
      assert.deepEqual(out.clientInfo, clientInfo);
    });
  }

  for (const v of ['2099-01-01', '2024-01-01', '', 'latest', '2026-07-28']) {
    test(`an offer the server does not speak as legacy (${JSON.stringify(v)}) gets the latest legacy version`, () => {
      assert.equal(ok(negotiateInitialize(good(v), ALL_VERSIONS)).version, '2025-11-25');
    });
  }

  test('the fallback is the newest legacy version of the list given, not of the library', () => {
    const out = ok(negotiateInitialize(good('2025-11-25'), ['2024-11-05', '2025-03-26']));
    assert.equal(out.version, '2025-03-26');
  });

  test('a version the server lists but that is modern is not chosen for initialize', () => {
    const out = ok(negotiateInitialize(good('2026-07-28'), ['2025-06-18', '2026-07-28']));
    assert.equal(out.version, '2025-06-18');
  });

  test('returns the caller objects for capabilities and clientInfo', () => {
    const params = good('2025-06-18', { clientInfo: { name: 'n', version: 'v', title: 'T' } });
    const out = ok(negotiateInitialize(params, ALL_VERSIONS));
    assert.equal(out.capabilities, params.capabilities);
    assert.deepEqual(out.clientInfo, { name: 'n', version: 'v', title: 'T' });
  });

  const invalid: Array<[string, Record<string, unknown>]> = [
    ['missing protocolVersion', { capabilities: {}, clientInfo }],
    ['numeric protocolVersion', { protocolVersion: 20250618, capabilities: {}, clientInfo }],
    ['missing capabilities', { protocolVersion: '2025-06-18', clientInfo }],
    ['array capabilities', { protocolVersion: '2025-06-18', capabilities: [], clientInfo }],
    ['null capabilities', { protocolVersion: '2025-06-18', capabilities: null, clientInfo }],
    ['missing clientInfo', { protocolVersion: '2025-06-18', capabilities: {} }],
    [
      'clientInfo without name',
      { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { version: '1' } },
    ],
    [
      'clientInfo without version',
      { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c' } },
    ],
    ['clientInfo as a string', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: 'c 1' }],
    ['no params at all', {}],
  ];
  for (const [name, params] of invalid) {
    test(`${name} -> -32602`, () => {
      err(negotiateInitialize(params, ALL_VERSIONS), ErrorCode.InvalidParams);
    });
  }

  test('the checks run before the version list: bad params win over a modern-only server', () => {
    err(negotiateInitialize({ protocolVersion: '2025-06-18' }, ['2026-07-28']), ErrorCode.InvalidParams);
  });

  test('a server with no legacy version answers -32022 naming the versions it speaks', () => {
    const e = err(
      negotiateInitialize(good('2025-06-18'), ['2026-07-28']),
      ErrorCode.UnsupportedProtocolVersion,
    );
    assert.match(e.message, /2026-07-28/);
    assert.deepEqual(e.data, { supported: ['2026-07-28'], requested: '2025-06-18' });
  });
});

describe('acceptsServerVersion', () => {
  test('accepts a legacy version the client speaks', () => {
    assert.equal(acceptsServerVersion('2025-06-18', ALL_VERSIONS), true);
    assert.equal(acceptsServerVersion('2024-11-05', ['2024-11-05']), true);
  });
  test('refuses a legacy version the client does not list', () => {
    assert.equal(acceptsServerVersion('2025-06-18', ['2024-11-05', '2025-03-26']), false);
  });
  test('refuses modern and unknown versions even when listed', () => {
    assert.equal(acceptsServerVersion('2026-07-28', ALL_VERSIONS), false);
    assert.equal(acceptsServerVersion('2099-01-01', ['2099-01-01']), false);
  });
  test('refuses non-strings', () => {
    for (const v of [undefined, null, 20250618, {}, ['2025-06-18']]) {
      assert.equal(acceptsServerVersion(v, ALL_VERSIONS), false, JSON.stringify(v));
    }
  });
});

describe('modernOnly', () => {
  test('keeps only the modern versions, in order', () => {
    assert.deepEqual(modernOnly(ALL_VERSIONS), ['2026-07-28']);
    assert.deepEqual(modernOnly(['2024-11-05', '2025-11-25']), []);
    assert.deepEqual(modernOnly(['2026-07-28', '2099-01-01']), ['2026-07-28']);
  });
});
