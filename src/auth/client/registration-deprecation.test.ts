/**
 * Client ID Metadata Documents first, Dynamic Client Registration (deprecated in 2026-07-28)
 * only as the fallback, with one deprecation warning per process.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OAuthClient } from './oauth-client.js';
import { headlessInteraction } from './interaction.js';
import { closeAfterEach, startProtected, whoami } from '../../test-support/oauth-attacks.js';

// The test runner silences deprecations for every file; this one checks the warning itself.
delete process.env.MCPKIT_NO_DEPRECATION;

const later = closeAfterEach();
const CIMD = 'https://app.example.com/oauth/client.json';

async function deprecationsDuring(run: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const on = (w: Error): void => {
    if (w.name === 'DeprecationWarning') seen.push(w.message);
  };
  process.on('warning', on);
  try {
    await run();
    await new Promise((r) => setImmediate(r));
  } finally {
    process.off('warning', on);
  }
  return seen;
}

const oauthFor = (url: string, clientMetadataUrl?: string) =>
  new OAuthClient({
    serverUrl: url,
    interaction: headlessInteraction({ redirectUri: 'http://127.0.0.1:33418/callback' }),
    ...(clientMetadataUrl !== undefined ? { clientMetadataUrl } : {}),
  });

describe('client registration order', () => {
  it('uses the metadata document where supported, registers elsewhere and warns once', async () => {
    const both = await startProtected(later, { cimd: true });
    const quiet = await deprecationsDuring(() => whoami(oauthFor(both.mcp.url, CIMD), both.mcp.url));
    assert.equal(both.as.count('/register'), 0, 'CIMD preferred although registration is offered');
    assert.deepEqual(quiet, []);

    const dcrOnly = await startProtected(later, {});
    const first = await deprecationsDuring(() => whoami(oauthFor(dcrOnly.mcp.url, CIMD), dcrOnly.mcp.url));
    assert.equal(dcrOnly.as.count('/register'), 1, 'the fallback when CIMD is not supported');
    const again = await startProtected(later, {});
    const second = await deprecationsDuring(() => whoami(oauthFor(again.mcp.url), again.mcp.url));
    assert.equal(again.as.count('/register'), 1);
    // Once per process (node --test runs each file in its own).
    assert.equal(first.length, 1, JSON.stringify(first));
    assert.match(first[0]!, /Dynamic Client Registration.*deprecated.*clientMetadataUrl/);
    assert.deepEqual(second, []);
  });
});
