/**
 * DPoP proofs (RFC 9449) checked the way a server checks them, with jose, and the nonce
 * dance against a real loopback token endpoint and MCP endpoint.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import type { JWK } from 'jose';
import { authFetch } from './auth-fetch.js';
import { DpopProver } from './dpop.js';
import { GuardedFetch } from './guarded-fetch.js';

/** Verifies a proof like a resource server: signature by the embedded key, typ, claims. */
async function verifyProof(proof: string) {
  const header = decodeProtectedHeader(proof);
  assert.equal(header.typ, 'dpop+jwt');
  assert.equal(header.alg, 'ES256');
  const jwk = header.jwk as JWK;
  assert.equal(jwk.d, undefined, 'no private key in the header');
  const { payload } = await jwtVerify(proof, await importJWK(jwk, 'ES256'), { typ: 'dpop+jwt' });
  return { payload, jwk };
}

let server: http.Server;
let origin: string;
const seen: Array<{ path: string; dpop: string | undefined; authorization: string | undefined }> = [];
const NONCE = 'server-nonce-1';

before(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', async () => {
      const dpop = req.headers.dpop as string | undefined;
      seen.push({ path: req.url ?? '', dpop, authorization: req.headers.authorization });
      const nonce = dpop ? (await verifyProof(dpop)).payload.nonce : undefined;
      if (req.url === '/token') {
        if (nonce !== NONCE) {
          res.writeHead(400, { 'content-type': 'application/json', 'dpop-nonce': NONCE });
          return res.end(JSON.stringify({ error: 'use_dpop_nonce' }));
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ access_token: 'tok', token_type: 'DPoP', body }));
      }
      if (nonce !== NONCE) {
        res.writeHead(401, {
          'www-authenticate': 'DPoP error="use_dpop_nonce", error_description="nonce required"',
          'dpop-nonce': NONCE,
        });
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

describe('DpopProver', () => {
  test('a proof names method, URI without query, a fresh jti, iat and the token hash', async () => {
    const prover = await DpopProver.generate();
    const a = await verifyProof(await prover.proof('post', 'https://mcp.example/mcp?x=1#f', 'tok'));
    const b = await verifyProof(await prover.proof('POST', 'https://mcp.example/mcp', 'tok'));
    assert.equal(a.payload.htm, 'POST');
    assert.equal(a.payload.htu, 'https://mcp.example/mcp');
    assert.notEqual(a.payload.jti, b.payload.jti);
    assert.ok(Math.abs(Number(a.payload.iat) - Date.now() / 1000) < 60);
    assert.equal(a.payload.ath, createHash('sha256').update('tok').digest('base64url'));
    assert.equal(a.payload.nonce, undefined);
    assert.equal(await calculateJwkThumbprint(a.jwk, 'sha256'), await prover.thumbprint());
    const noToken = await verifyProof(await prover.proof('POST', 'https://as.example/token'));
    assert.equal(noToken.payload.ath, undefined);
  });

  test('token requests: a use_dpop_nonce answer is retried once with the nonce', async () => {
    const prover = await DpopProver.generate();
    const guarded = new GuardedFetch({ policy: { allowLoopback: true } });
    const tokenFetch = prover.tokenFetch(guarded.custom);
    seen.length = 0;
    const res = await tokenFetch(`${origin}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    assert.equal(res.status, 200);
    assert.equal(seen.length, 2, 'one challenge, one retry');
    assert.equal((await verifyProof(seen[1]!.dpop!)).payload.nonce, NONCE);
  });

  test('resource requests: DPoP scheme, a proof per request, one retry on a nonce challenge', async () => {
    const prover = await DpopProver.generate();
    const source = {
      serverUrl: new URL(`${origin}/mcp`),
      accessToken: () => Promise.resolve('tok'),
      proofFor: (token: string, method: string, url: string) => prover.proof(method, url, token),
      observe: (status: number, headers: Headers, url: string) =>
        prover.rememberNonce(url, headers) && status === 401,
      recover: () => Promise.resolve(),
    };
    const f = authFetch(source);
    seen.length = 0;
    const res = await f(`${origin}/mcp`, { method: 'POST', body: '{}' });
    assert.equal(res.status, 200);
    assert.equal(seen.length, 2);
    for (const s of seen) assert.equal(s.authorization, 'DPoP tok');
    const [first, second] = await Promise.all(seen.map((s) => verifyProof(s.dpop!)));
    assert.notEqual(first!.payload.jti, second!.payload.jti);
    assert.equal(second!.payload.nonce, NONCE);
    // The nonce is kept: the next request needs no challenge.
    seen.length = 0;
    assert.equal((await f(`${origin}/mcp`, { method: 'POST', body: '{}' })).status, 200);
    assert.equal(seen.length, 1);
  });
});
