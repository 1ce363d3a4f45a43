import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuthError } from '../errors.js';
import {
  authorizationServerMetadataUrls,
  canonicalResourceUri,
  discover,
  protectedResourceMetadataUrls,
  resourceMatches,
} from './discovery.js';
import { GuardedFetch } from './guarded-fetch.js';
import { requireS256 } from './authorization-code.js';

const s = (urls: URL[]): string[] => urls.map(String);

describe('well-known URLs', () => {
  it('protected resource metadata: path-inserted, then root', () => {
    assert.deepEqual(s(protectedResourceMetadataUrls(new URL('https://m.example/public/mcp'))), [
      'https://m.example/.well-known/oauth-protected-resource/public/mcp',
      'https://m.example/.well-known/oauth-protected-resource',
    ]);
    assert.deepEqual(s(protectedResourceMetadataUrls(new URL('https://m.example/'))), [
      'https://m.example/.well-known/oauth-protected-resource',
    ]);
  });

  it('authorization server metadata in the spec order', () => {
    assert.deepEqual(s(authorizationServerMetadataUrls(new URL('https://a.example/tenant1'))), [
      'https://a.example/.well-known/oauth-authorization-server/tenant1',
      'https://a.example/.well-known/openid-configuration/tenant1',
      'https://a.example/tenant1/.well-known/openid-configuration',
    ]);
    assert.deepEqual(s(authorizationServerMetadataUrls(new URL('https://a.example'))), [
      'https://a.example/.well-known/oauth-authorization-server',
      'https://a.example/.well-known/openid-configuration',
    ]);
  });
});

describe('resource identifiers', () => {
  it('canonical URIs drop the fragment and the lone trailing slash, lowercase scheme and host', () => {
    assert.equal(canonicalResourceUri(new URL('HTTPS://M.Example.com/')), 'https://m.example.com');
    assert.equal(canonicalResourceUri(new URL('https://m.example.com/mcp#x')), 'https://m.example.com/mcp');
    assert.equal(canonicalResourceUri(new URL('https://m.example.com:8443')), 'https://m.example.com:8443');
  });

  it('a resource matches its own URL only, compared as canonical URIs (RFC 9728 §3.3)', () => {
    const server = new URL('https://m.example.com/api/mcp');
    for (const ok of [
      'https://m.example.com/api/mcp',
      'https://m.example.com/api/mcp/',
      'HTTPS://M.EXAMPLE.COM/api/mcp',
    ]) {
      assert.equal(resourceMatches(ok, server), true, ok);
    }
    for (const bad of [
      // Parent paths are other resources: a token for one is good beneath it.
      'https://m.example.com',
      'https://m.example.com/',
      'https://m.example.com/api',
      'https://evil.example.com/api/mcp',
      'http://m.example.com/api/mcp',
      'https://m.example.com:444/api/mcp',
      'https://m.example.com/ap',
      'https://m.example.com/api/mcp/deeper',
      'https://m.example.com/api/mcp#f',
      'https://m.example.com/api/mcp?tenant=2',
      'not a url',
    ]) {
      assert.equal(resourceMatches(bad, server), false, bad);
    }
  });

  it('a document at the root well-known URL may name the origin, and no other parent', () => {
    const server = new URL('https://m.example.com/api/mcp');
    const root = { rootWellKnown: true };
    assert.equal(resourceMatches('https://m.example.com', server, root), true);
    assert.equal(resourceMatches('https://m.example.com/', server, root), true);
    assert.equal(resourceMatches('https://m.example.com/api/mcp', server, root), true);
    assert.equal(resourceMatches('https://m.example.com/api', server, root), false);
    assert.equal(resourceMatches('https://evil.example.com', server, root), false);
  });
});

describe('discover', () => {
  function site(routes: Record<string, unknown>): { fetcher: GuardedFetch; hits: string[] } {
    const hits: string[] = [];
    const f = async (input: RequestInfo | URL): Promise<Response> => {
      hits.push(String(input));
      const body = routes[String(input)];
      return body === undefined ? new Response('', { status: 404 }) : Response.json(body);
    };
    return { fetcher: new GuardedFetch({ policy: {}, fetch: f as typeof fetch }), hits };
  }
  const as = {
    issuer: 'https://a.example/tenant1',
    authorization_endpoint: 'https://a.example/tenant1/authorize',
    token_endpoint: 'https://a.example/tenant1/token',
    code_challenge_methods_supported: ['S256'],
  };

  it('follows the header pointer, then the spec order of AS metadata URLs', async () => {
    const { fetcher, hits } = site({
      'https://m.example/custom/prm.json': {
        resource: 'https://m.example/mcp',
        authorization_servers: [as.issuer],
      },
      'https://a.example/tenant1/.well-known/openid-configuration': as,
    });
    const d = await discover(fetcher, new URL('https://m.example/mcp'), {
      resourceMetadata: 'https://m.example/custom/prm.json',
    });
    assert.equal(d.resource, 'https://m.example/mcp');
    assert.equal(d.as.issuer, as.issuer);
    assert.deepEqual(hits, [
      'https://m.example/custom/prm.json',
      'https://a.example/.well-known/oauth-authorization-server/tenant1',
      'https://a.example/.well-known/openid-configuration/tenant1',
      'https://a.example/tenant1/.well-known/openid-configuration',
    ]);
  });

  it('uses the PRM resource verbatim as the RFC 8707 resource', async () => {
    const { fetcher } = site({
      'https://m.example/.well-known/oauth-protected-resource': {
        resource: 'https://m.example',
        authorization_servers: [as.issuer],
      },
      'https://a.example/.well-known/oauth-authorization-server/tenant1': as,
    });
    const d = await discover(fetcher, new URL('https://m.example/mcp'), undefined);
    assert.equal(d.resource, 'https://m.example');
  });

  it('refuses a PRM naming another resource, and an AS document naming another issuer', async () => {
    const bad = site({
      'https://m.example/.well-known/oauth-protected-resource/mcp': {
        resource: 'https://evil.example/mcp',
        authorization_servers: [as.issuer],
      },
    });
    await assert.rejects(
      discover(bad.fetcher, new URL('https://m.example/mcp'), undefined),
      (e) => e instanceof AuthError && e.code === 'ResourceMismatch',
    );
    assert.equal(bad.hits.length, 1);
    const mixed = site({
      'https://m.example/.well-known/oauth-protected-resource/mcp': {
        resource: 'https://m.example/mcp',
        authorization_servers: ['https://attacker.example'],
      },
      'https://attacker.example/.well-known/oauth-authorization-server': {
        ...as,
        issuer: 'https://honest.example',
      },
    });
    await assert.rejects(
      discover(mixed.fetcher, new URL('https://m.example/mcp'), undefined),
      (e) => e instanceof AuthError && e.code === 'IssuerMismatch',
    );
  });

  it('refuses a parent path from any location, and the origin from a pointed-to document', async () => {
    const server = new URL('https://m.example/api/mcp');
    const mismatch = (e: unknown) => e instanceof AuthError && e.code === 'ResourceMismatch';
    const parentAtRoot = site({
      'https://m.example/.well-known/oauth-protected-resource': {
        resource: 'https://m.example/api',
        authorization_servers: [as.issuer],
      },
    });
    await assert.rejects(discover(parentAtRoot.fetcher, server, undefined), mismatch);
    const originByPointer = site({
      'https://m.example/.well-known/oauth-protected-resource': {
        resource: 'https://m.example',
        authorization_servers: [as.issuer],
      },
    });
    const pointer = { resourceMetadata: 'https://m.example/.well-known/oauth-protected-resource' };
    await assert.rejects(discover(originByPointer.fetcher, server, pointer), mismatch);
    // The same document found at the root well-known URL describes the origin: accepted.
    const d = await discover(
      site({
        'https://m.example/.well-known/oauth-protected-resource': {
          resource: 'https://m.example',
          authorization_servers: [as.issuer],
        },
        'https://a.example/.well-known/oauth-authorization-server/tenant1': as,
      }).fetcher,
      server,
      undefined,
    );
    assert.equal(d.resource, 'https://m.example');
  });

  it('picks the preferred or selected authorization server', async () => {
    const { fetcher } = site({
      'https://m.example/.well-known/oauth-protected-resource': {
        resource: 'https://m.example',
        authorization_servers: ['https://x.example', as.issuer],
      },
      'https://a.example/.well-known/oauth-authorization-server/tenant1': as,
    });
    const d = await discover(fetcher, new URL('https://m.example/'), undefined, {
      selectAuthorizationServer: (l) => l[1]!,
    });
    assert.equal(d.as.issuer, as.issuer);
  });

  it('refuses fields whose value cannot even be turned into a string, with an AuthError (found by the fuzzer)', async () => {
    const hostile = { toString: 1 };
    const legacy = site({
      'https://m.example/.well-known/oauth-authorization-server': { ...as, issuer: hostile },
    });
    await assert.rejects(
      discover(legacy.fetcher, new URL('https://m.example/mcp'), undefined),
      (e) => e instanceof AuthError && e.code === 'IssuerMismatch' && e.message.includes('{"toString":1}'),
    );
    assert.throws(
      () => requireS256({ ...as, code_challenge_methods_supported: [hostile] as never }),
      (e) => e instanceof AuthError && e.code === 'PkceNotSupported' && e.message.includes('{"toString":1}'),
    );
  });
});
