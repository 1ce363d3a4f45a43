/**
 * Threat: Mix-Up Attacks (security best practices, "Mix-Up Attacks"; authorization security
 * considerations, "Mix-Up Attacks"). An authorization server the attacker controls gets the
 * client to send it a code that an honest server issued.
 *
 * Defence: the client records the issuer before redirecting the user and checks the RFC 9207
 * `iss` of the authorization response against it (as a plain string, and required when the
 * server advertises it) before anything of the response is used; authorization server
 * metadata must name the issuer it was looked up for (RFC 8414).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startProtectedMcp } from '../test-support/auth-fixtures.js';
import { TestAuthServer } from '../test-support/auth-test-server.js';
import { closeAfterEach, connectRefused, startProtected } from '../test-support/oauth-attacks.js';

const later = closeAfterEach();

describe('mix-up attacks', () => {
  it('an attacker’s authorization server fronting an honest one never receives the honest code', async () => {
    // The honest server identifies its responses (iss). The attacker's metadata sends the
    // user to the honest server to log in, but names its own token endpoint.
    const honest = await TestAuthServer.start({ iss: true });
    later(() => honest.close());
    const attacker = await TestAuthServer.start({
      metadata: (m) => ({
        ...m,
        authorization_endpoint: `${honest.issuer}/authorize`,
        registration_endpoint: `${honest.issuer}/register`,
      }),
    });
    later(() => attacker.close());
    const mcp = await startProtectedMcp(attacker);
    later(() => mcp.close());

    const r = await connectRefused(mcp.url, 'IssuerMismatch');
    assert.match(r.message, new RegExp(`came from ${honest.issuer}, not from ${attacker.issuer}`));
    assert.equal(honest.count('/authorize'), 1, 'the user did log in at the honest server');
    assert.equal(attacker.count('/token'), 0, 'the code never reached the attacker');
    assert.equal(honest.tokenRequests.length, 0, 'nor was it redeemed anywhere');
  });

  it('a response without iss from a server that advertises it (iss stripped) is not redeemed', async () => {
    const { as, mcp } = await startProtected(later, {
      metadata: (m) => ({ ...m, authorization_response_iss_parameter_supported: true }),
    });
    await connectRefused(mcp.url, 'IssuerMismatch');
    assert.equal(as.count('/authorize'), 1);
    assert.equal(as.tokenRequests.length, 0);
  });

  it('a response naming another issuer is not redeemed, whatever the server advertises', async () => {
    const { as, mcp } = await startProtected(later, { iss: 'https://honest.example' });
    await connectRefused(mcp.url, 'IssuerMismatch');
    assert.equal(as.tokenRequests.length, 0);
  });

  it('metadata impersonating another issuer is refused before registering or sending the user anywhere', async () => {
    const { as, mcp } = await startProtected(later, {
      metadata: (m) => ({ ...m, issuer: 'https://honest.example' }),
    });
    const r = await connectRefused(mcp.url, 'IssuerMismatch');
    assert.equal(r.opened.length, 0);
    assert.equal(as.count('/register') + as.count('/authorize') + as.count('/token'), 0);
  });
});
