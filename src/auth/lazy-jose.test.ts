import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { jwtVerifier } from './index.js';

// jose (about 46 modules) loads with the first signature or verification, not with `mcpkit/auth`.
const trace = fileURLToPath(new URL('../test-support/module-trace.js', import.meta.url));
const dist = fileURLToPath(new URL('../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mcpkit-jose-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let runs = 0;
function joseModulesLoadedBy(code: string): string[] {
  const file = join(dir, `trace-${++runs}.txt`);
  const r = spawnSync(process.execPath, ['--import', trace, '--input-type=module', '-e', code], {
    encoding: 'utf8',
    cwd: dist,
    timeout: 30_000,
    env: { ...process.env, MODULE_TRACE_FILE: file },
  });
  assert.equal(r.status, 0, r.stderr);
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((m) => m.includes('/node_modules/jose/'));
}

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
