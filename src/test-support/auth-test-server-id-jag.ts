/**
 * Enterprise-Managed Authorization (SEP-990) in the test authorization server, both roles:
 * the identity provider's RFC 8693 token exchange of an ID token for an ID-JAG, and the MCP
 * authorization server's RFC 7523 redemption of an ID-JAG for an access token restricted to
 * the MCP server named by its `resource` claim. Test-only.
 */
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import type { JWTVerifyGetKey } from 'jose';
import type { LoggedRequest, TestAuthServer } from './auth-test-server.js';
import { authenticateClient } from './auth-test-server-parts.js';

export const ID_JAG_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';
export const ID_JAG_PROFILE = 'urn:ietf:params:oauth:grant-profile:id-jag';
const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';

/** An identity provider whose ID-JAGs an authorization server accepts. */
export interface TrustedIdp {
  issuer: string;
  /** Where its keys are fetched from (over HTTP, like a real authorization server does). */
  jwksUri: string;
}

/** The identity provider's decision on one token exchange (its administrator's policy). */
export interface IdpPolicyRequest {
  subject: string;
  /** The requesting client at the IdP. */
  clientId: string;
  audience: string;
  resource: string | undefined;
  scope: string | undefined;
}

type Reply = { status: number; body: Record<string, unknown> };
const err = (error: string, status = 400, description?: string): Reply => ({
  status,
  body: description === undefined ? { error } : { error, error_description: description },
});

/**
 * As identity provider: an ID token for an ID-JAG (RFC 8693; EMA §4). The client authenticates
 * when the IdP has clients configured; the ID token must be this IdP's and issued to that
 * client. The ID-JAG carries `iss`, `sub`, `aud` (the requested audience), `resource` when
 * asked, `client_id` (the client's ID at the MCP authorization server, `jagClientId`), `jti`,
 * `iat`, `exp` and the granted `scope`, typed `oauth-id-jag+jwt`.
 */
export async function exchangeForIdJag(idp: TestAuthServer, log: LoggedRequest): Promise<Reply> {
  const b = log.body;
  const o = idp.options;
  let clientId = b.client_id;
  let method = 'none';
  if (o.clients !== undefined) {
    const auth = await authenticateClient(idp, log);
    if ('error' in auth) {
      idp.tokenRequests.push({ grant: b.grant_type!, auth: auth.error, body: b });
      return err(auth.error, 401);
    }
    clientId = auth.id;
    method = auth.method;
  }
  idp.tokenRequests.push({ grant: b.grant_type!, auth: method, body: b });
  if (
    b.requested_token_type !== ID_JAG_TYPE ||
    b.subject_token_type !== ID_TOKEN_TYPE ||
    !b.audience ||
    !b.subject_token ||
    !clientId
  ) {
    return err('invalid_request');
  }
  let subject: string;
  try {
    const { payload } = await jwtVerify(b.subject_token, idp.keys.publicKey, {
      issuer: idp.issuer,
      audience: clientId,
    });
    subject = String(payload.sub);
  } catch {
    return err('invalid_grant', 400, 'the subject token is not an ID token of this IdP for this client');
  }
  const request: IdpPolicyRequest = {
    subject,
    clientId,
    audience: b.audience,
    resource: b.resource,
    scope: b.scope,
  };
  const scope = o.idpPolicy ? o.idpPolicy(request) : b.scope;
  if (scope === false) return err('invalid_grant', 400, 'denied by policy');
  const claims: Record<string, unknown> = { sub: subject, aud: b.audience, client_id: o.jagClientId };
  if (b.resource !== undefined) claims.resource = b.resource;
  if (scope !== undefined) claims.scope = scope;
  const ttl = o.idJagTtl ?? 300;
  const jag = await idp.sign(claims, ttl, 'oauth-id-jag+jwt');
  const body: Record<string, unknown> = {
    access_token: jag,
    issued_token_type: ID_JAG_TYPE,
    token_type: 'N_A',
  };
  // An already expired ID-JAG (an attack test) goes out without the impossible expires_in.
  if (ttl >= 0) body.expires_in = ttl;
  if (scope !== undefined) body.scope = scope;
  return { status: 200, body };
}

/** Keys per trusted issuer and the `jti`s already redeemed (with their expiry), per server. */
const keySets = new WeakMap<TestAuthServer, Map<string, JWTVerifyGetKey>>();
const redeemed = new WeakMap<TestAuthServer, Map<string, number>>();

function keysOf(as: TestAuthServer, idp: TrustedIdp): JWTVerifyGetKey {
  let sets = keySets.get(as);
  if (!sets) keySets.set(as, (sets = new Map()));
  let keys = sets.get(idp.issuer);
  if (!keys) sets.set(idp.issuer, (keys = createRemoteJWKSet(new URL(idp.jwksUri))));
  return keys;
}

/** A replayed `jti` (seen before and not yet expired); records it otherwise. */
function replayed(as: TestAuthServer, issuer: string, jti: string, exp: number): boolean {
  let seen = redeemed.get(as);
  if (!seen) redeemed.set(as, (seen = new Map()));
  const now = Date.now() / 1000;
  for (const [k, until] of seen) if (until < now) seen.delete(k);
  const key = `${issuer} ${jti}`;
  if (seen.has(key)) return true;
  seen.set(key, exp);
  return false;
}

/** What an accepted ID-JAG grants: the token's subject, audience (the MCP server) and scope. */
export interface IdJagGrant {
  subject: string;
  resource: string;
  scope: string | undefined;
}

/**
 * As the MCP authorization server: validates an ID-JAG (EMA §5.1, draft §4.4.1): the
 * `oauth-id-jag+jwt` type, an issuer on the trusted list, its signature by that issuer's
 * JWKS, audience = this server's issuer, `exp`/`iat`/`jti`/`sub`/`client_id` present and
 * unexpired, `client_id` = the authenticated client, the `jti` not redeemed before, and the
 * request's `resource` (when sent) = the ID-JAG's. The granted scope is the requested one
 * within the ID-JAG's (the IdP's decision), else the ID-JAG's.
 */
export async function redeemIdJag(
  as: TestAuthServer,
  b: Record<string, string>,
  clientId: string,
): Promise<IdJagGrant | Reply> {
  const assertion = b.assertion;
  if (!assertion) return err('invalid_request', 400, 'no assertion');
  let iss: unknown;
  try {
    iss = decodeJwt(assertion).iss;
  } catch {
    return err('invalid_grant', 400, 'the assertion is not a JWT');
  }
  const idp = (as.options.trustedIdps ?? []).find((i) => i.issuer === iss);
  if (!idp) return err('invalid_grant', 400, 'the ID-JAG issuer is not trusted');
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(assertion, keysOf(as, idp), {
      issuer: idp.issuer,
      audience: as.issuer,
      typ: 'oauth-id-jag+jwt',
      algorithms: ['ES256'],
      requiredClaims: ['exp', 'iat', 'jti', 'sub', 'client_id'],
      clockTolerance: 0,
    }));
  } catch (e) {
    return err('invalid_grant', 400, `the ID-JAG is not valid: ${(e as Error).message}`);
  }
  if (payload.client_id !== clientId) {
    return err('invalid_grant', 400, 'the ID-JAG was issued for another client');
  }
  const resource = payload.resource;
  if (typeof resource !== 'string') return err('invalid_grant', 400, 'the ID-JAG names no resource');
  if (b.resource !== undefined && b.resource !== resource) {
    return err('invalid_target', 400, 'the resource is not the one of the ID-JAG');
  }
  if (replayed(as, idp.issuer, String(payload.jti), Number(payload.exp))) {
    return err('invalid_grant', 400, 'the ID-JAG was already used');
  }
  const allowed = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
  const scope =
    b.scope === undefined
      ? (payload.scope as string | undefined)
      : b.scope
          .split(' ')
          .filter((s) => allowed.includes(s))
          .join(' ') || undefined;
  return { subject: String(payload.sub), resource, scope };
}
