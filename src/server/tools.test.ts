import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode } from '../jsonrpc/index.js';
import { buildTool, checkToolScopes } from './tools.js';

describe('tool scopes', () => {
  const entry = buildTool({ name: 'purge', scopes: ['files:write', 'admin'] }, () => '');

  it('are kept on the entry, not in the listed tool', () => {
    assert.deepEqual(entry.scopes, ['files:write', 'admin']);
    assert.equal(Object.isFrozen(entry.scopes), true);
    assert.equal('scopes' in entry.wire, false);
    assert.deepEqual(buildTool({ name: 'plain' }, () => '').scopes, []);
  });

  it('must be scope tokens (RFC 6749 §3.3)', () => {
    for (const scopes of [['two words'], [''], ['quote"d'], ['back\\slash'], [1 as unknown as string]]) {
      assert.throws(() => buildTool({ name: 'x', scopes }, () => ''), /scope tokens/, JSON.stringify(scopes));
    }
  });

  it('hold an authenticated caller to every scope, matched exactly', () => {
    const refused = checkToolScopes(entry, { scopes: ['files:write'] });
    assert.equal(refused?.code, ErrorCode.InvalidRequest);
    assert.deepEqual(refused?.data, { error: 'insufficient_scope', scope: 'files:write admin' });
    assert.ok(checkToolScopes(entry, { scopes: ['files'] }), 'no hierarchy: files is not files:write');
    assert.equal(checkToolScopes(entry, { scopes: ['admin', 'files:write', 'more'] }), undefined);
  });

  it('refuse a principal without a scope list, and leave an unauthenticated connection alone', () => {
    assert.ok(checkToolScopes(entry, { subject: 'u' }));
    assert.ok(checkToolScopes(entry, null));
    assert.equal(checkToolScopes(entry, undefined), undefined);
    assert.equal(
      checkToolScopes(
        buildTool({ name: 'plain' }, () => ''),
        { scopes: [] },
      ),
      undefined,
    );
  });
});
