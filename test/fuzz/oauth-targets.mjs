// Fuzz targets for the OAuth client's parsers: protected resource and authorization server
// metadata documents (through `discover()` and the choices made from them), and
// `WWW-Authenticate` challenges written by a server and read back.
import fc from 'fast-check';
import { AuthError } from '../../dist/auth/errors.js';
import { discover } from '../../dist/auth/client/discovery.js';
import { GuardedFetch } from '../../dist/auth/client/guarded-fetch.js';
import { requireS256 } from '../../dist/auth/client/authorization-code.js';
import { chooseAuthMethod } from '../../dist/auth/client/client-auth.js';
import { bearerChallengeOf, parseWwwAuthenticate } from '../../dist/auth/client/www-authenticate.js';

const SERVER = 'https://m.example/mcp';
const ISSUER = 'https://a.example/t';
const PRM_URL = 'https://m.example/.well-known/oauth-protected-resource/mcp';
const AS_URL = 'https://a.example/.well-known/oauth-authorization-server/t';
const LEGACY_AS_URL = 'https://m.example/.well-known/oauth-authorization-server';

/** Values a hostile or broken server might put in any field. */
const hostile = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    { toString: 1 },
    { toString: {}, valueOf: {} },
    [{ toString: 1 }],
    ['S256', { valueOf: 1, toString: 1 }],
    '',
    ISSUER,
    ISSUER + '/',
    SERVER,
    'https://m.example',
    'http://127.0.0.1/x',
    'javascript:alert(1)',
    '//a.example/t',
    'https://a.example/t/../x',
    'https://[::1]/',
    ['S256'],
    ['none', 'client_secret_post'],
    [],
    null,
  ),
  fc.webUrl(),
);

const fields = (names, base) =>
  fc.dictionary(fc.constantFrom(...names), hostile, { maxKeys: 4 }).map((over) => ({ ...base, ...over }));

const prmDoc = fields(
  ['resource', 'authorization_servers', 'scopes_supported', 'bearer_methods_supported', 'x'],
  {
    resource: SERVER,
    authorization_servers: [ISSUER],
  },
);
const asBase = {
  issuer: ISSUER,
  authorization_endpoint: ISSUER + '/authorize',
  token_endpoint: ISSUER + '/token',
  code_challenge_methods_supported: ['S256'],
};
const asDoc = fields(
  [
    'issuer',
    'authorization_endpoint',
    'token_endpoint',
    'registration_endpoint',
    'code_challenge_methods_supported',
    'token_endpoint_auth_methods_supported',
    'grant_types_supported',
    'scopes_supported',
    'dpop_signing_alg_values_supported',
    'client_id_metadata_document_supported',
    'response_types_supported',
  ],
  asBase,
);

/** A body as served: the document, any JSON, a raw string, or a document with an own `__proto__`. */
const body = (doc) =>
  fc.oneof(
    { weight: 6, arbitrary: doc.map((d) => JSON.stringify(d)) },
    { weight: 1, arbitrary: fc.json({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 1, arbitrary: doc.map((d) => JSON.stringify(d).replace(/^\{/, '{"__proto__":{"issuer":1},')) },
  );

function site(routes) {
  const fetch = async (input) => {
    const text = routes[String(input)];
    if (text === undefined) return new Response('', { status: 404 });
    return new Response(text, { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return new GuardedFetch({ policy: {}, fetch });
}

/** Only `AuthError`s may come out of discovery and the choices made from its result. */
async function discoverAndChoose(routes, challenge) {
  try {
    const d = await discover(site(routes), new URL(SERVER), challenge);
    if (typeof d.resource !== 'string' || typeof d.as !== 'object' || d.as === null) return false;
    try {
      requireS256(d.as);
    } catch (e) {
      if (!(e instanceof AuthError)) throw e;
    }
    for (const has of [
      { secret: false, key: false },
      { secret: true, key: false },
    ]) {
      try {
        chooseAuthMethod(d.as, has);
      } catch (e) {
        if (!(e instanceof AuthError)) throw e;
      }
    }
    return true;
  } catch (e) {
    if (e instanceof AuthError) return true;
    throw e;
  }
}

/** RFC 9110 token characters, for auth-param names and schemes. */
const tchar = fc.constantFrom(
  ..."!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
);
const token = fc.oneof(
  fc.string({ unit: tchar, minLength: 1, maxLength: 12 }),
  fc.constantFrom(
    'constructor',
    '__proto__',
    'toString',
    'hasOwnProperty',
    'scope',
    'resource_metadata',
    'error',
  ),
);
/** quoted-string content: visible ASCII, space and tab (quotes and backslashes escaped on output). */
const qtext = fc.string({ unit: fc.constantFrom(...' \t!"#\\,=abcXYZ019~'), maxLength: 30 });
const challenge = fc.record({
  scheme: token.filter((t) => !/^(?:[A-Za-z0-9\-._~+/]+=*)$/.test(t) || /[^A-Za-z0-9\-._~+/=]/.test(t)),
  params: fc.uniqueArray(fc.tuple(token, qtext), { selector: ([k]) => k.toLowerCase(), maxLength: 5 }),
});

export const oauthTargets = [
  {
    name: 'oauth-metadata',
    what: 'any protected resource / authorization server metadata: a Discovery or an AuthError, never another throw',
    property: () =>
      fc.asyncProperty(
        fc.boolean(),
        fc.boolean(),
        body(prmDoc),
        body(asDoc),
        body(
          fields(['issuer', 'authorization_endpoint', 'token_endpoint', 'registration_endpoint'], {
            ...asBase,
            issuer: 'https://m.example',
          }),
        ),
        async (viaChallenge, legacy, prm, as, legacyAs) => {
          const routes = legacy
            ? { [LEGACY_AS_URL]: legacyAs }
            : { [viaChallenge ? 'https://m.example/prm.json' : PRM_URL]: prm, [AS_URL]: as };
          const challenge = viaChallenge ? { resourceMetadata: 'https://m.example/prm.json' } : undefined;
          return discoverAndChoose(routes, challenge);
        },
      ),
  },
  {
    name: 'www-auth-roundtrip',
    what: 'challenges written as RFC 9110 says are read back: schemes, every param (first of a name wins)',
    property: () =>
      fc.property(fc.array(challenge, { minLength: 1, maxLength: 4 }), (challenges) => {
        const quote = (v) => '"' + v.replace(/["\\]/g, (c) => '\\' + c) + '"';
        const header = challenges
          .map((c) =>
            [c.scheme, c.params.map(([k, v]) => `${k}=${quote(v)}`).join(', ')].filter(Boolean).join(' '),
          )
          .join(', ');
        const parsed = parseWwwAuthenticate(header);
        const expected = challenges.map((c) => ({
          scheme: c.scheme,
          params: Object.fromEntries(c.params.map(([k, v]) => [k.toLowerCase(), v])),
        }));
        const got = parsed.map((c) => ({ scheme: c.scheme, params: { ...c.params } }));
        if (JSON.stringify(got) !== JSON.stringify(expected)) {
          throw new Error(`${header}\n got ${JSON.stringify(got)}\nwant ${JSON.stringify(expected)}`);
        }
        bearerChallengeOf(new Headers({ 'www-authenticate': header.replace(/\t/g, ' ') }));
        return true;
      }),
  },
];
