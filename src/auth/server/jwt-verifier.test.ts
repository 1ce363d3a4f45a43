import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { TestAuthServer } from '../../test-support/auth-test-server.js';
import { InvalidTokenError } from './auth-info.js';
import { jwtVerifier } from './jwt-verifier.js';

const ISSUER = 'https://auth.example.com';
const AUD = 'https://mcp.example.com/mcp';
let as: TestAuthServer;

before(async () => {
  as = await TestAuthServer.create();
  as.attach(ISSUER);
});

const token = (typ: string) => as.sign({ sub: 'alice', aud: AUD }, 300, typ);

describe('jwtVerifier typ', () => {
  it('requires at+jwt by default, in either spelling and any case', async () => {
    const v = jwtVerifier({ issuer: ISSUER, audience: AUD, jwks: await as.jwks() });
    for (const typ of ['at+jwt', 'application/at+jwt', 'AT+JWT']) {
      assert.equal((await v.verify(await token(typ))).subject, 'alice', typ);
    }
    await assert.rejects(v.verify(await token('JWT')), (e) => {
      assert.ok(e instanceof InvalidTokenError);
      assert.match(e.message, /typ "JWT".*at\+jwt/);
      return true;
    });
  });

  it('accepts a list of types, or does not look with typ: false', async () => {
    const jwks = await as.jwks();
    const listed = jwtVerifier({ issuer: ISSUER, audience: AUD, jwks, typ: ['at+jwt', 'JWT'] });
    assert.equal((await listed.verify(await token('jwt'))).subject, 'alice');
    await assert.rejects(listed.verify(await token('id_token+jwt')), InvalidTokenError);
    const relaxed = jwtVerifier({ issuer: ISSUER, audience: AUD, jwks, typ: false });
    assert.equal((await relaxed.verify(await token('anything'))).subject, 'alice');
    assert.throws(() => jwtVerifier({ issuer: ISSUER, audience: AUD, jwks, typ: [] }), /typ/);
  });
});
