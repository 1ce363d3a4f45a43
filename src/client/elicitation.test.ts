import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ElicitRequestParams, ElicitResult } from '../protocol/types/index.js';
import { applyElicitationDefaults, urlRefusal } from './elicitation.js';
import { ELICIT_FORM } from '../test-support/client-harness.js';

const form = ELICIT_FORM as unknown as ElicitRequestParams;

describe('applyElicitationDefaults (SEP-1034)', () => {
  test('fills every omitted field with its default: string, integer, number, enum, boolean', () => {
    const out = applyElicitationDefaults(form, { action: 'accept', content: {} });
    assert.deepEqual(out.content, {
      name: 'John Doe',
      age: 30,
      score: 95.5,
      status: 'active',
      verified: true,
    });
  });

  test('accept without content gets the defaults too', () => {
    assert.equal(applyElicitationDefaults(form, { action: 'accept' }).content?.age, 30);
  });

  test('answered fields are kept, even falsy ones', () => {
    const out = applyElicitationDefaults(form, {
      action: 'accept',
      content: { name: '', verified: false, age: 0 },
    });
    assert.deepEqual(out.content, {
      name: '',
      verified: false,
      age: 0,
      score: 95.5,
      status: 'active',
    });
  });

  test('decline, cancel and URL mode are left alone; the input is not modified', () => {
    for (const action of ['decline', 'cancel'] as const) {
      const r: ElicitResult = { action };
      assert.equal(applyElicitationDefaults(form, r), r);
    }
    const url = { mode: 'url', message: 'm', url: 'https://x' } as ElicitRequestParams;
    const r: ElicitResult = { action: 'accept', content: {} };
    assert.equal(applyElicitationDefaults(url, r), r);
    const given = { action: 'accept' as const, content: {} };
    applyElicitationDefaults(form, given);
    assert.deepEqual(given.content, {});
  });

  test('multi-select and titled enums; defaults that do not fit their type are ignored', () => {
    const params = {
      message: 'm',
      requestedSchema: {
        type: 'object',
        properties: {
          colors: { type: 'array', items: { type: 'string', enum: ['r', 'g'] }, default: ['r'] },
          titled: { type: 'string', oneOf: [{ const: 'a', title: 'A' }], default: 'a' },
          badEnum: { type: 'string', enum: ['x'], default: 'y' },
          badInt: { type: 'integer', default: 1.5 },
          badBool: { type: 'boolean', default: 'true' },
          nested: { type: 'object', default: { a: 1 } },
          noDefault: { type: 'string' },
        },
      },
    } as unknown as ElicitRequestParams;
    const out = applyElicitationDefaults(params, { action: 'accept', content: {} });
    assert.deepEqual(out.content, { colors: ['r'], titled: 'a' });
  });

  test('property: answered keys never change, and every added key had a default', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('name', 'age', 'score', 'status', 'verified', 'other'), fc.string()),
        (content) => {
          const out = applyElicitationDefaults(form, { action: 'accept', content });
          for (const [k, v] of Object.entries(content)) assert.equal(out.content?.[k], v);
          for (const k of Object.keys(out.content ?? {}))
            assert.ok(k in content || k in ELICIT_FORM.requestedSchema.properties);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('urlRefusal', () => {
  for (const url of [
    'https://example.com/a?b=c#d',
    'http://localhost:8080/cb',
    'https://xn--bcher-kva.example/',
  ]) {
    test(`accepts ${url}`, () => assert.equal(urlRefusal(url), undefined));
  }
  for (const url of [
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'data:text/html,x',
    'file:///etc/passwd',
    'vbscript:x',
    'ftp://example.com',
    'mailto:a@b',
    'example.com',
    '',
    'https://u:p@example.com',
    42,
    undefined,
    'https://' + 'a'.repeat(9000),
  ]) {
    test(`refuses ${JSON.stringify(url)?.slice(0, 40)}`, () =>
      assert.equal(typeof urlRefusal(url), 'string'));
  }
});
