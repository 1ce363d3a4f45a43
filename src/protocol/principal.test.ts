/** The one principal: an issuer's subject, user or client, and a key no two principals share. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { principalKey, principalOf } from './principal.js';

describe('principalOf', () => {
  test('a sub that is not the client is a user of its issuer', () => {
    assert.deepEqual(principalOf({ issuer: 'https://a', subject: 'alice', clientId: 'app' }), {
      issuer: 'https://a',
      subject: 'alice',
      kind: 'user',
    });
  });

  test('a token a client holds for itself (no sub, or sub equal to client_id) is the client', () => {
    const own = { issuer: 'https://a', subject: 'svc', kind: 'client' };
    assert.deepEqual(principalOf({ issuer: 'https://a', clientId: 'svc' }), own);
    assert.deepEqual(principalOf({ issuer: 'https://a', subject: 'svc', clientId: 'svc' }), own);
  });

  test('an explicit principal wins; nothing to name is anonymous', () => {
    const p = { issuer: 'i', subject: 's', kind: 'client' } as const;
    assert.equal(principalOf({ principal: p, subject: 'other' }), p);
    assert.equal(principalOf(undefined), undefined);
    assert.equal(principalOf({ scopes: [] }), undefined);
    assert.equal(principalOf({ subject: '' }), undefined);
    assert.equal(principalKey({}), '');
  });
});

describe('principalKey', () => {
  test('the same subject of two issuers, and a user and a client of one name, are four principals', () => {
    const keys = new Set([
      principalKey({ issuer: 'https://tenant-a', subject: 'alice' }),
      principalKey({ issuer: 'https://tenant-b', subject: 'alice' }),
      principalKey({ issuer: 'https://tenant-a', clientId: 'alice' }),
      principalKey({ issuer: 'https://tenant-b', clientId: 'alice' }),
    ]);
    assert.equal(keys.size, 4);
  });

  test('no issuer or subject can be crafted to collide with another pair', () => {
    assert.notEqual(
      principalKey({ issuer: 'a","b', subject: 'c' }),
      principalKey({ issuer: 'a', subject: 'b","c' }),
    );
  });

  test('equal principals give equal keys', () => {
    assert.equal(
      principalKey({ issuer: 'i', subject: 's', scopes: ['x'] }),
      principalKey({ issuer: 'i', subject: 's', clientId: 'app' }),
    );
  });
});
