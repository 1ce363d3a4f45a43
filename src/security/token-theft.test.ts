/**
 * Threat: an access token is stolen (from a log, a proxy, a handler that forwards headers,
 * the client's storage) and replayed. Defences: a DPoP-bound token (`cnf.jkt`) is honoured
 * only as `Authorization: DPoP` with a fresh proof signed by its key, for this method, this
 * URL and this token, never seen before and, when the server asks, carrying its nonce
 * (RFC 9449); and the bearer layer takes the credentials off the Node request, from the
 * parsed headers and from `rawHeaders`, so no code after it can read or forward them.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import type { JWK } from 'jose';
import { DpopProver } from '../auth/client/dpop.js';
import { MemoryCredentialStore } from '../auth/client/store.js';
import { OAuthClient } from '../auth/client/oauth-client.js';
import { parseWwwAuthenticate } from '../auth/client/www-authenticate.js';
import { callText, connectWith, spyInteraction } from '../test-support/auth-fixtures.js';
import { TestAuthServer } from '../test-support/auth-test-server.js';
import { modern, postJson, request, POST_HEADERS } from '../test-support/http-server-harness.js';
import type { RawResponse } from '../test-support/http-server-harness.js';
import { challengeOf, startScopedMcp } from '../test-support/security-fixtures.js';
import type { ScopedMcp } from '../test-support/security-fixtures.js';

const whoami = () => modern('tools/call', { name: 'whoami', arguments: {} });
const sha256 = async (s: string): Promise<string> =>
  Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(s))).toString('base64url');

/** A DPoP key the test controls fully, to sign proofs with any claims. */
async function rawKey(): Promise<{
  jkt: string;
  sign(claims: Record<string, unknown>, typ?: string): Promise<string>;
}> {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = (await exportJWK(publicKey)) as JWK;
  return {
    jkt: await calculateJwkThumbprint(jwk, 'sha256'),
    sign: (claims, typ = 'dpop+jwt') =>
      new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ, jwk }).sign(privateKey),
  };
}

/** POSTs a modern tools/call whoami with these credentials. */
function callWith(mcp: ScopedMcp, authorization: string, dpop?: string | string[]): Promise<RawResponse> {
  const m = whoami();
  const headers: Record<string, string> = { ...POST_HEADERS, ...m.headers, authorization };
  if (dpop !== undefined) (headers as Record<string, string | string[]>).dpop = dpop;
  return request(mcp.url, { headers, body: JSON.stringify(m.body) });
}

/** Refused 401 with a DPoP challenge carrying `error`, and nothing ran. */
function assertRefused(r: RawResponse, mcp: ScopedMcp, error: string): void {
  assert.equal(r.status, 401, r.body);
  const c = parseWwwAuthenticate(challengeOf(r));
  assert.equal(c[0]?.scheme, 'DPoP', challengeOf(r));
  assert.equal(c[0]?.params.error, error);
  assert.match(c[0]?.params.algs ?? '', /ES256/);
  assert.equal(c[0]?.params.resource_metadata, mcp.auth.metadataUrl);
  assert.deepEqual(mcp.ran, []);
}

describe('a stolen DPoP-bound token', () => {
  let mcp: ScopedMcp;
  let prover: DpopProver;
  let token: string;
  before(async () => {
    mcp = await startScopedMcp({ bearer: { dpop: {} } });
    prover = await DpopProver.generate();
    token = await mcp.token('mcp', { cnf: { jkt: await prover.thumbprint() } });
  });
  after(() => mcp.close());
  afterEach(() => void (mcp.ran.length = 0));

  it('is refused as a plain Bearer token', async () => {
    assertRefused(await callWith(mcp, `Bearer ${token}`), mcp, 'invalid_token');
  });

  it('is refused with the DPoP scheme but no proof', async () => {
    assertRefused(await callWith(mcp, `DPoP ${token}`), mcp, 'invalid_dpop_proof');
  });

  it("is refused with a proof of the thief's own key", async () => {
    const thief = await DpopProver.generate();
    const proof = await thief.proof('POST', mcp.url, token);
    assertRefused(await callWith(mcp, `DPoP ${token}`, proof), mcp, 'invalid_dpop_proof');
  });

  it('is refused with a proof made for another method, URL or token', async () => {
    const elsewhere = new URL('/other', mcp.url).href;
    for (const proof of [
      await prover.proof('GET', mcp.url, token),
      await prover.proof('POST', elsewhere, token),
      await prover.proof('POST', mcp.url, 'another-token'),
      await prover.proof('POST', mcp.url),
    ]) {
      assertRefused(await callWith(mcp, `DPoP ${token}`, proof), mcp, 'invalid_dpop_proof');
    }
  });

  it('is refused with a replayed proof', async () => {
    const proof = await prover.proof('POST', mcp.url, token);
    assert.equal((await callWith(mcp, `DPoP ${token}`, proof)).status, 200);
    mcp.ran.length = 0;
    assertRefused(await callWith(mcp, `DPoP ${token}`, proof), mcp, 'invalid_dpop_proof');
  });

  it('is refused with a proof too old, from the future, mistyped, or one of two', async () => {
    const key = await rawKey();
    const bound = await mcp.token('mcp', { cnf: { jkt: key.jkt } });
    const now = Math.floor(Date.now() / 1000);
    const claims = async (iat: number) => ({
      htm: 'POST',
      htu: mcp.url,
      iat,
      jti: crypto.randomUUID(),
      ath: await sha256(bound),
    });
    for (const proof of [
      await key.sign(await claims(now - 600)),
      await key.sign(await claims(now + 600)),
      await key.sign(await claims(now), 'JWT'),
    ]) {
      assertRefused(await callWith(mcp, `DPoP ${bound}`, proof), mcp, 'invalid_dpop_proof');
    }
    const two = [await key.sign(await claims(now)), await key.sign(await claims(now))];
    assertRefused(await callWith(mcp, `DPoP ${bound}`, two), mcp, 'invalid_dpop_proof');
    // The same key with a proper proof passes: what failed above was the proof.
    assert.equal((await callWith(mcp, `DPoP ${bound}`, await key.sign(await claims(now)))).status, 200);
  });

  it('is honoured with a fresh proof of its key', async () => {
    const r = await callWith(mcp, `DPoP ${token}`, await prover.proof('POST', mcp.url, token));
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(mcp.ran, ['whoami']);
  });
});

describe('server nonces', () => {
  let mcp: ScopedMcp;
  before(async () => (mcp = await startScopedMcp({ bearer: { dpop: { nonce: true } } })));
  after(() => mcp.close());

  it('a proof made in advance, without the current nonce, is refused with use_dpop_nonce', async () => {
    const prover = await DpopProver.generate();
    const token = await mcp.token('mcp', { cnf: { jkt: await prover.thumbprint() } });
    const r = await callWith(mcp, `DPoP ${token}`, await prover.proof('POST', mcp.url, token));
    assertRefused(r, mcp, 'use_dpop_nonce');
    const nonce = r.headers['dpop-nonce'];
    assert.equal(typeof nonce, 'string');
    prover.rememberNonce(mcp.url, new Headers({ 'dpop-nonce': String(nonce) }));
    const again = await callWith(mcp, `DPoP ${token}`, await prover.proof('POST', mcp.url, token));
    assert.equal(again.status, 200, again.body);
    // A forged nonce is no nonce.
    prover.rememberNonce(mcp.url, new Headers({ 'dpop-nonce': `${String(nonce)}x` }));
    mcp.ran.length = 0;
    const forged = await callWith(mcp, `DPoP ${token}`, await prover.proof('POST', mcp.url, token));
    assertRefused(forged, mcp, 'use_dpop_nonce');
  });
});

describe('credentials after the bearer layer', () => {
  let mcp: ScopedMcp;
  before(async () => (mcp = await startScopedMcp({ bearer: { dpop: {} } })));
  after(() => mcp.close());

  const credentials = (names: string[]) => names.filter((n) => /^(authorization|dpop)$/i.test(n));

  it('are gone from the headers and from rawHeaders, for Bearer and DPoP tokens alike', async () => {
    const bearer = await mcp.token('mcp');
    assert.equal(
      (await postJson(mcp.url, whoami().body, { ...whoami().headers, authorization: `Bearer ${bearer}` }))
        .status,
      200,
    );
    const prover = await DpopProver.generate();
    const bound = await mcp.token('mcp', { cnf: { jkt: await prover.thumbprint() } });
    const proof = await prover.proof('POST', mcp.url, bound);
    assert.equal((await callWith(mcp, `DPoP ${bound}`, proof)).status, 200);
    assert.equal(mcp.afterAuth.length, 2);
    for (const seen of mcp.afterAuth) {
      assert.deepEqual(credentials(Object.keys(seen.headers)), []);
      assert.deepEqual(credentials(seen.rawHeaders!.filter((_, i) => i % 2 === 0)), []);
      const all = JSON.stringify(seen);
      for (const secret of [bearer, bound, proof]) assert.equal(all.includes(secret), false);
      // The other headers are still there.
      assert.ok(seen.rawHeaders!.some((h) => h.toLowerCase() === 'content-type'));
    }
  });
});

describe('our OAuth client against our resource server', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  for (const era of ['legacy', 'modern'] as const) {
    for (const nonce of [false, true]) {
      it(`${era} era${nonce ? ', with server nonces' : ''}: a DPoP-bound token works, and its theft does not`, async () => {
        const as = await TestAuthServer.start({ dpop: true });
        cleanup.push(() => as.close());
        const mcp = await startScopedMcp({ as, bearer: { dpop: { nonce } } });
        cleanup.push(() => mcp.close());
        const store = new MemoryCredentialStore();
        const oauth = new OAuthClient({ serverUrl: mcp.url, interaction: spyInteraction(), store });
        const client = await connectWith(oauth, mcp.url, era);
        cleanup.push(() => client.close());
        assert.equal(await callText(client, 'whoami'), 'user-1');
        assert.equal(await callText(client, 'whoami'), 'user-1');
        const stored = Object.values((await store.get(as.issuer))?.tokens ?? {})[0];
        assert.equal(stored?.token_type, 'DPoP', 'the authorization server bound the token');
        // The stored token, stolen and replayed as Bearer or with a thief's proof, is refused.
        mcp.ran.length = 0;
        const thief = await DpopProver.generate();
        assertRefused(await callWith(mcp, `Bearer ${stored!.access_token}`), mcp, 'invalid_token');
        const proof = await thief.proof('POST', mcp.url, stored!.access_token);
        const r = await callWith(mcp, `DPoP ${stored!.access_token}`, proof);
        assert.equal(r.status, 401);
        assert.deepEqual(mcp.ran, []);
      });
    }
  }
});
