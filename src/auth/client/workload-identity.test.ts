import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AuthError } from '../errors.js';
import { GuardedFetch } from './guarded-fetch.js';
import { workloadIdentity } from './workload-identity.js';

const context = {
  issuer: 'https://as.example',
  resource: 'https://mcp.example/mcp',
  fetch: new GuardedFetch({ policy: {} }),
};
const jwt = (n: number) => `eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3b3JrbG9hZC0ke259In0.sig${n}`;

describe('workloadIdentity', () => {
  test('presents the given token, trimmed', async () => {
    assert.equal(await workloadIdentity(` ${jwt(1)}\n`)(context), jwt(1));
  });

  test('a function source is read for every token request (rotated token files)', async () => {
    let n = 0;
    const provider = workloadIdentity(async () => jwt(++n));
    assert.equal(await provider(context), jwt(1));
    assert.equal(await provider(context), jwt(2));
  });

  test('something that is not a compact JWT is refused before it is sent', async () => {
    for (const bad of ['', 'not-a-jwt', 'a.b', 'a.b.c.d', 'ey J.x.y']) {
      await assert.rejects(
        workloadIdentity(bad)(context),
        (e: unknown) => e instanceof AuthError && e.code === 'InvalidConfiguration',
        JSON.stringify(bad),
      );
    }
  });
});
