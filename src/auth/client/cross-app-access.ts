/**
 * Cross-app access (the MCP "enterprise-managed authorization" extension, SEP-990): the
 * user's identity provider exchanges their ID token for an Identity Assertion JWT
 * Authorization Grant (ID-JAG, RFC 8693 token exchange), which the MCP server's
 * authorization server then accepts in an RFC 7523 jwt-bearer grant. The authorization
 * server says it takes ID-JAGs by listing the profile in `authorization_grant_profiles_supported`.
 */
import {
  ClientSecretPost,
  None,
  genericTokenEndpointRequest,
  processGenericTokenEndpointResponse,
} from 'oauth4webapi';
import type { AuthorizationServer, ClientAuth } from 'oauth4webapi';
import { AuthError } from '../errors.js';
import type { GuardedFetch } from './guarded-fetch.js';
import { clientSecretBasic } from './client-auth.js';
import { requestOptions, tokenCall } from './grants.js';
import { checkFetchUrl } from './network-policy.js';

export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';
export const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';
export { ENTERPRISE_MANAGED_AUTHORIZATION } from '../../protocol/meta-keys.js';
/** The ID-JAG profile as named in `authorization_grant_profiles_supported` (EMA §6). */
export const ID_JAG_PROFILE = 'urn:ietf:params:oauth:grant-profile:id-jag';

/** What an assertion provider is told about the token it must make possible. */
export interface AssertionContext {
  /** The issuer of the MCP server's authorization server (the ID-JAG's audience). */
  issuer: string;
  /** The RFC 8707 resource of the MCP server. */
  resource: string;
  scope?: string;
  fetch: GuardedFetch;
}

/** Produces the assertion of an RFC 7523 jwt-bearer grant. */
export interface AssertionProvider {
  (context: AssertionContext): Promise<string>;
  /**
   * The authorization grant profile the assertion follows: the authorization server must list
   * it in `authorization_grant_profiles_supported`, or the grant is not attempted (nothing is
   * asked of the identity provider). Absent: not checked.
   */
  readonly grantProfile?: string;
}

/** The identity provider side of cross-app access. */
export interface CrossAppAccessOptions {
  /** The IdP's token endpoint, which performs the token exchange. */
  idpTokenEndpoint: string;
  /** The IdP's issuer (default: the token endpoint's origin). */
  idpIssuer?: string;
  /** The user's ID token from the IdP, or a function returning a fresh one. */
  idToken: string | (() => Promise<string>);
  /** This client's identifier at the IdP. */
  idpClientId: string;
  /** This client's secret at the IdP, sent with client_secret_basic (or post, see below). */
  idpClientSecret?: string;
  idpAuthMethod?: 'client_secret_basic' | 'client_secret_post' | 'none';
  /**
   * Refuse authorization servers that do not list the ID-JAG profile
   * (`urn:ietf:params:oauth:grant-profile:id-jag`) in `authorization_grant_profiles_supported`
   * (default true). `false` only for servers that predate that metadata field.
   */
  requireAdvertisedProfile?: boolean;
}

/**
 * An {@link AssertionProvider} for cross-app access: an RFC 8693 token exchange at the IdP
 * (subject token: the ID token; requested token type: ID-JAG; audience: the issuer of the MCP
 * server's authorization server; resource: the MCP server's RFC 9728 resource identifier;
 * scope: the scope being asked for). The IdP endpoint is reached through the client's network
 * policy like every other OAuth URL. The authorization server must advertise the ID-JAG
 * profile (see {@link CrossAppAccessOptions.requireAdvertisedProfile}).
 *
 * @example
 * ```ts
 * const oauth = new OAuthClient({
 *   serverUrl,
 *   grant: { type: 'jwt_bearer', assertion: crossAppAccess({ idpTokenEndpoint, idToken, idpClientId }) },
 *   preRegistered: { clientId: 'my-app', clientSecret: 'secret' },
 * });
 * ```
 */
export function crossAppAccess(options: CrossAppAccessOptions): AssertionProvider {
  const provider = async (ctx: AssertionContext): Promise<string> => {
    const endpoint = checkFetchUrl(
      options.idpTokenEndpoint,
      'identity provider token endpoint',
      ctx.fetch.policy,
    );
    const idp: AuthorizationServer = {
      issuer: options.idpIssuer ?? endpoint.origin,
      token_endpoint: endpoint.href,
    };
    const client = { client_id: options.idpClientId };
    const secret = options.idpClientSecret;
    const method = options.idpAuthMethod ?? (secret === undefined ? 'none' : 'client_secret_basic');
    if (method !== 'none' && secret === undefined) {
      throw new AuthError('InvalidConfiguration', `idpAuthMethod ${method} needs idpClientSecret`);
    }
    const auth: ClientAuth =
      method === 'none'
        ? None()
        : method === 'client_secret_post'
          ? ClientSecretPost(secret!)
          : clientSecretBasic(secret!);
    const subject = typeof options.idToken === 'string' ? options.idToken : await options.idToken();
    const params: Record<string, string> = {
      requested_token_type: ID_JAG,
      audience: ctx.issuer,
      resource: ctx.resource,
      subject_token: subject,
      subject_token_type: ID_TOKEN,
    };
    if (ctx.scope !== undefined) params.scope = ctx.scope;
    let issuedType: unknown;
    const res = await tokenCall('token exchange at the identity provider', async () => {
      const response = await genericTokenEndpointRequest(
        idp,
        client,
        auth,
        TOKEN_EXCHANGE,
        params,
        requestOptions(ctx.fetch),
      );
      return processGenericTokenEndpointResponse(idp, client, response, {
        // RFC 8693 §2.2.1: an ID-JAG is not an access token; its token_type is N_A.
        recognizedTokenTypes: { n_a: (_r, body) => void (issuedType = body.issued_token_type) },
      });
    });
    issuedType ??= res.issued_token_type;
    if (issuedType !== ID_JAG) {
      throw new AuthError(
        'TokenRequestFailed',
        `The identity provider issued ${String(issuedType)}, not an ID-JAG`,
      );
    }
    return res.access_token;
  };
  return options.requireAdvertisedProfile === false
    ? provider
    : Object.assign(provider, { grantProfile: ID_JAG_PROFILE });
}
