import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { addParamHeaders, paramHeaderText, readParamHeaders } from './x-mcp-header.js';

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});

describe('x-mcp-header annotations', () => {
  test('finds annotations reached through properties alone, nested included', () => {
    const found = readParamHeaders(
      obj({
        region: { type: 'string', 'x-mcp-header': 'Region' },
        opts: obj({ tenant: { type: 'integer', 'x-mcp-header': 'Tenant-Id' } }),
        flag: { type: ['boolean', 'null'], 'x-mcp-header': 'Flag' },
        query: { type: 'string' },
        'x-mcp-header': { type: 'string' },
      }),
    );
    assert.deepEqual(found, [
      { name: 'Region', path: ['region'] },
      { name: 'Tenant-Id', path: ['opts', 'tenant'] },
      { name: 'Flag', path: ['flag'] },
    ]);
  });

  test('rejects every broken annotation the specification lists', () => {
    const cases: [unknown, RegExp][] = [
      [obj({ a: { type: 'string', 'x-mcp-header': '' } }), /non-empty HTTP token/],
      [obj({ a: { type: 'string', 'x-mcp-header': 'Has Space' } }), /HTTP token/],
      [obj({ a: { type: 'string', 'x-mcp-header': 'CR\r' } }), /HTTP token/],
      [obj({ a: { type: 'string', 'x-mcp-header': 42 } }), /HTTP token/],
      [
        obj({
          a: { type: 'string', 'x-mcp-header': 'A' },
          b: { type: 'string', 'x-mcp-header': 'a' },
        }),
        /used twice/,
      ],
      [obj({ a: { type: 'number', 'x-mcp-header': 'A' } }), /type string, integer or boolean/],
      [obj({ a: { type: 'object', 'x-mcp-header': 'A' } }), /type string, integer or boolean/],
      [obj({ a: { 'x-mcp-header': 'A' } }), /type string, integer or boolean/],
      [obj({ a: { type: ['string', 'number'], 'x-mcp-header': 'A' } }), /type string/],
      [obj({ a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'A' } } }), /not reachable/],
      [obj({}, { anyOf: [obj({ a: { type: 'string', 'x-mcp-header': 'A' } })] }), /not reachable/],
      [obj({}, { $defs: { d: { type: 'string', 'x-mcp-header': 'A' } } }), /not reachable/],
      [
        obj({ a: { $ref: '#/$defs/d' } }, { $defs: { d: { type: 'string', 'x-mcp-header': 'A' } } }),
        /not reachable/,
      ],
      [obj({}, { if: obj({ a: { type: 'string', 'x-mcp-header': 'A' } }) }), /not reachable/],
      [{ type: 'string', 'x-mcp-header': 'Root' }, /schema root/],
    ];
    for (const [schema, reason] of cases) {
      const out = readParamHeaders(schema);
      assert.equal(typeof out, 'string', JSON.stringify(schema));
      assert.match(out as string, reason);
    }
  });

  test('data keywords are not schemas: x-mcp-header inside default or enum is ignored', () => {
    assert.deepEqual(readParamHeaders(obj({ a: { type: 'object', default: { 'x-mcp-header': 'A' } } })), []);
    assert.deepEqual(readParamHeaders(undefined), []);
  });

  test('a hostile, very deep schema is refused rather than walked forever', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 200; i++) deep = obj({ n: deep });
    assert.match(readParamHeaders(deep) as string, /too large or too deep/);
  });

  test('header values: strings encoded, integers and booleans as text, nothing for null or fractions', () => {
    assert.equal(paramHeaderText('us-west1'), 'us-west1');
    assert.equal(paramHeaderText('é'), '=?base64?w6k=?=');
    assert.equal(paramHeaderText(-7), '-7');
    assert.equal(paramHeaderText(true), 'true');
    assert.equal(paramHeaderText(1.5), undefined);
    assert.equal(paramHeaderText(2 ** 53), undefined);
    assert.equal(paramHeaderText(null), undefined);
    const headers: Record<string, string> = {};
    const warnings: string[] = [];
    const params = [
      { name: 'Region', path: ['region'] },
      { name: 'Tenant', path: ['opts', 'tenant'] },
      { name: 'Missing', path: ['nope'] },
      { name: 'Odd', path: ['odd'] },
    ];
    addParamHeaders(headers, params, { region: 'eu', opts: { tenant: 3 }, odd: { x: 1 } }, (m) =>
      warnings.push(m),
    );
    assert.deepEqual(headers, { 'mcp-param-region': 'eu', 'mcp-param-tenant': '3' });
    assert.equal(warnings.length, 1);
  });
});
