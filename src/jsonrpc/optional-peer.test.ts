import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { LocalError } from './local-error.js';
import { importOptionalPeer } from './optional-peer.js';

describe('importOptionalPeer', () => {
  test('a package that is not installed is a PackageMissing error naming it and the install command', async () => {
    const pkg = 'mcpkit-test-no-such-package';
    await assert.rejects(
      importOptionalPeer(pkg, 'The test feature', () => import(pkg)),
      (e: unknown) =>
        e instanceof LocalError &&
        e.code === 'PackageMissing' &&
        e.message === `The test feature needs the package ${pkg}, which is not installed: npm install ${pkg}`,
    );
  });

  test('an installed package loads', async () => {
    const ajv = await importOptionalPeer('ajv', 'Validation', () => import('ajv'));
    assert.equal(typeof ajv.default, 'function');
  });

  test('a package that is there but fails inside is reported as it is, not as missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'optional-peer-'));
    try {
      const entry = join(dir, 'entry.mjs');
      writeFileSync(entry, "import 'mcpkit-test-inner-dependency';\n");
      await assert.rejects(
        importOptionalPeer('entry-package', 'The feature', () => import(pathToFileURL(entry).href)),
        (e: unknown) => !(e instanceof LocalError) && /mcpkit-test-inner-dependency/.test(String(e)),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
