import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bearerChallengeOf, parseWwwAuthenticate, scopeSet } from './www-authenticate.js';

describe('parseWwwAuthenticate', () => {
  it('reads quoted and token values, case-insensitive names, escapes', () => {
    const [c] = parseWwwAuthenticate(
      'Bearer Resource_Metadata="https://x.example/.well-known/oauth-protected-resource", scope="a b", error=invalid_token, error_description="say \\"hi\\""',
    );
    assert.equal(c!.scheme, 'Bearer');
    assert.deepEqual(c!.params, {
      resource_metadata: 'https://x.example/.well-known/oauth-protected-resource',
      scope: 'a b',
      error: 'invalid_token',
      error_description: 'say "hi"',
    });
  });

  it('separates several challenges, token68 included', () => {
    const all = parseWwwAuthenticate('Basic abc==, Bearer realm="mcp", scope="x", DPoP algs="ES256"');
    assert.deepEqual(
      all.map((c) => [c.scheme, c.token68, c.params]),
      [
        ['Basic', 'abc==', {}],
        ['Bearer', undefined, { realm: 'mcp', scope: 'x' }],
        ['DPoP', undefined, { algs: 'ES256' }],
      ],
    );
  });

  it('keeps the first of duplicate parameters and survives junk', () => {
    assert.deepEqual(parseWwwAuthenticate('Bearer scope="a", scope="b"')[0]!.params, { scope: 'a' });
    assert.doesNotThrow(() => parseWwwAuthenticate('"", ,,, =x; Bearer'));
    assert.deepEqual(parseWwwAuthenticate(''), []);
    assert.deepEqual(parseWwwAuthenticate('Bearer scope="unterminated')[0]!.params, {
      scope: 'unterminated',
    });
  });

  it('keeps parameters named like Object.prototype members (found by the fuzzer)', () => {
    const p = parseWwwAuthenticate('Bearer constructor="a", __proto__="b", toString="c"')[0]!.params;
    assert.deepEqual(Object.entries(p), [
      ['constructor', 'a'],
      ['__proto__', 'b'],
      ['tostring', 'c'],
    ]);
    assert.equal(Object.getPrototypeOf(p), Object.prototype);
  });
});

describe('bearerChallengeOf', () => {
  it('finds the Bearer challenge among others', () => {
    const h = new Headers({
      'www-authenticate': 'Basic realm="x", Bearer error="insufficient_scope", scope="  files:write "',
    });
    assert.deepEqual(bearerChallengeOf(h), { error: 'insufficient_scope', scope: 'files:write' });
    assert.equal(bearerChallengeOf(new Headers({ 'www-authenticate': 'Basic realm="x"' })), undefined);
    assert.equal(bearerChallengeOf(new Headers()), undefined);
  });

  it('splits scopes', () => assert.deepEqual([...scopeSet(' a  b a ')], ['a', 'b']));
});
