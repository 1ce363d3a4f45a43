import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../errors.js';
import { parseHostConfig } from './config-parse.js';
import { Policy } from '../policy/policy.js';

const SERVERS = { files: { command: 'fs' }, search: { url: 'https://search.example.com/mcp' } };
const TOKEN = 'a'.repeat(32);

function problems(gateway: unknown, env: Record<string, string> = {}): string {
  try {
    parseHostConfig({ mcpServers: SERVERS, mcpkit: { gateway } }, { env });
  } catch (e) {
    assert.ok(e instanceof ConfigError, String(e));
    return e.message;
  }
  assert.fail('expected a ConfigError');
}

describe('config: mcpkit.gateway', () => {
  test('named tokens from the environment, JWTs, and per-caller rules', () => {
    const config = parseHostConfig(
      {
        mcpServers: SERVERS,
        mcpkit: {
          gateway: {
            auth: {
              tokens: { 'ci-bot': '${CI_TOKEN}' },
              jwt: {
                issuer: 'https://auth.example.com',
                audience: 'https://gateway.example.com/mcp',
                jwksUrl: 'https://auth.example.com/jwks',
                scopes: ['mcp:tools'],
              },
            },
            principals: [
              { token: 'ci-bot', allow: { search: '*', files: ['read_file'] } },
              { issuer: 'https://auth.example.com', subject: 'alice', allow: '*' },
              { issuer: 'https://auth.example.com', client: 'reports', allow: { search: ['query'] } },
            ],
          },
        },
      },
      { env: { CI_TOKEN: TOKEN } },
    );
    const g = config.gateway!;
    assert.deepEqual(g.auth?.tokens, { 'ci-bot': TOKEN });
    assert.deepEqual(g.auth?.jwt, {
      issuer: ['https://auth.example.com'],
      audience: ['https://gateway.example.com/mcp'],
      jwksUrl: 'https://auth.example.com/jwks',
      resource: 'https://gateway.example.com/mcp',
      authorizationServers: ['https://auth.example.com'],
      scopes: ['mcp:tools'],
    });
    assert.deepEqual(
      g.principals?.map((p) => p.principal),
      [
        { issuer: '', subject: 'ci-bot', kind: 'client' },
        { issuer: 'https://auth.example.com', subject: 'alice', kind: 'user' },
        { issuer: 'https://auth.example.com', subject: 'reports', kind: 'client' },
      ],
    );
    // The rules as the policy applies them: exact (server, tool) pairs, per principal.
    const policy = Policy.fromConfig(config);
    const bot = g.principals![0]!.principal;
    assert.equal(policy.principalAllows('files', 'read_file', bot), true);
    assert.equal(policy.principalAllows('files', 'write_file', bot), false);
    assert.equal(policy.principalAllows('files', undefined, bot), false, 'reads need "*"');
    assert.equal(policy.principalAllows('search', undefined, bot), true);
    // A user and a client of the same name are two principals.
    const reportsUser = { issuer: 'https://auth.example.com', subject: 'reports', kind: 'user' } as const;
    assert.equal(policy.principalAllows('search', 'query', reportsUser), false);
    assert.equal(policy.principalAllows('search', 'query', null), false, 'unauthenticated callers');
    assert.equal(policy.principalAllows('files', 'write_file', undefined), true, "the host's own calls");
  });

  test('a weak, shared or reserved token is refused without printing it', () => {
    const weak = problems({ auth: { tokens: { a: 'hunter2' } } });
    assert.match(weak, /at least 16 characters/);
    assert.doesNotMatch(weak, /hunter2/);
    assert.match(problems({ auth: { tokens: { a: TOKEN, b: TOKEN } } }), /the same as "a"/);
    assert.match(problems({ auth: { tokens: { cli: TOKEN } } }), /command line's token/);
    assert.match(problems({ auth: { tokens: { a: 'has spaces in it, sixteen+' } } }), /letters, digits/);
    assert.match(problems({ auth: {} }), /named tokens, or "jwt"/);
    assert.match(problems({ auth: { tokens: { a: '${UNSET_TOKEN}' } } }), /UNSET_TOKEN to be set/);
  });

  test('rules must name a known token, an accepted issuer, a configured server', () => {
    const auth = {
      tokens: { a: TOKEN },
      jwt: {
        issuer: 'https://auth.example.com',
        audience: 'https://gw.example.com/mcp',
        jwksUrl: 'https://auth.example.com/jwks',
      },
    };
    assert.match(problems({ auth, principals: [{ token: 'b', allow: '*' }] }), /name of a token/);
    assert.match(
      problems({ auth, principals: [{ issuer: 'https://other.example.com', subject: 'x', allow: '*' }] }),
      /one of the accepted issuers/,
    );
    assert.match(
      problems({ auth, principals: [{ token: 'a', allow: { nope: '*' } }] }),
      /a server of this config/,
    );
    assert.match(
      problems({ auth, principals: [{ token: 'a', subject: 'x', allow: '*' }] }),
      /exactly one of/,
    );
    assert.match(problems({ auth, principals: [{ token: 'a' }] }), /"\*" or an object of servers/);
    assert.match(problems({ auth: { jwt: { issuer: 'https://a.example' } } }), /jwksUrl/);
  });

  test('visibility rules: a server, optionally its tools, and the scopes or claims that see them', () => {
    const auth = { tokens: { a: TOKEN } };
    const config = parseHostConfig({
      mcpServers: SERVERS,
      mcpkit: {
        gateway: {
          auth,
          visibility: [
            { server: 'files', tools: ['write_file'], scopes: ['files:write'] },
            { server: 'search', claims: { team: 'sec', region: ['eu', 'us'] } },
          ],
        },
      },
    });
    assert.deepEqual(config.gateway?.visibility, [
      { server: 'files', tools: ['write_file'], scopes: ['files:write'], claims: {} },
      { server: 'search', tools: undefined, scopes: [], claims: { team: 'sec', region: ['eu', 'us'] } },
    ]);
    assert.match(
      problems({ auth, visibility: [{ server: 'nope', scopes: ['x'] }] }),
      /a server of this config/,
    );
    assert.match(problems({ auth, visibility: [{ server: 'files' }] }), /scopes or claims/);
  });
});
