import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { modulesLoadedBy } from '../test-support/loaded-modules.js';
import { jwtVerifier } from './index.js';

// jose (about 46 modules) loads with the first signature or verification, not with `mcpkit/auth`.
const joseModulesLoadedBy = (code: string): string[] =>
  modulesLoadedBy(code).filter((m) => m.includes('/node_modules/jose/'));

describe('jose loads on first use', () => {
  test('importing mcpkit/auth loads no jose; the first DPoP key does, and works', () => {
    assert.deepEqual(joseModulesLoadedBy("await import('./auth/index.js');"), []);
    const code = `
      const { DpopProver } = await import('./auth/index.js');
      const prover = await DpopProver.generate();
      const proof = await prover.proof('POST', 'https://mcp.example.com/mcp');
      if (proof.split('.').length !== 3 || (await prover.thumbprint()).length < 40) throw new Error('bad proof');`;
    assert.ok(joseModulesLoadedBy(code).length > 0);
  });

  test('jwtVerifier still refuses a bad configuration when it is made, before jose loads', () => {
    const base = { issuer: 'https://as.example.com', audience: 'https://mcp.example.com/mcp' };
    assert.throws(() => jwtVerifier(base), /jwksUrl, jwks or key/);
    assert.throws(() => jwtVerifier({ ...base, jwks: {} as never }), /JSON Web Key Set/);
    assert.throws(() => jwtVerifier({ ...base, jwksUrl: 'not a url' }), TypeError);
  });
});
