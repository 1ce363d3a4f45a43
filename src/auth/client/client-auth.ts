/** Token endpoint client authentication: which method, and the oauth4webapi object doing it. */
import { ClientSecretPost, None, PrivateKeyJwt } from 'oauth4webapi';
import type { AuthorizationServer, ClientAuth } from 'oauth4webapi';
import { AuthError } from '../errors.js';
import { loadJose } from '../jose-lazy.js';

/** The token endpoint authentication methods mcpkit speaks. */
export type TokenEndpointAuthMethod =
  'none' | 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';

/** A private key for `private_key_jwt`: a non-extractable CryptoKey, or PKCS#8 PEM with its JWS algorithm. */
export type ClientKey = CryptoKey | { pem: string; alg: string; kid?: string };

/** A client identity ready for the token endpoint. */
export interface ResolvedClient {
  clientId: string;
  clientSecret?: string;
  privateKey?: ClientKey;
  method: TokenEndpointAuthMethod;
  /** How the client got its identity. */
  source: 'pre-registered' | 'metadata-document' | 'dynamic-registration';
}

const KNOWN: readonly TokenEndpointAuthMethod[] = [
  'private_key_jwt',
  'client_secret_basic',
  'client_secret_post',
  'none',
];

function listed(as: AuthorizationServer): string[] | undefined {
  const v = as.token_endpoint_auth_methods_supported;
  return Array.isArray(v) ? v.filter((m): m is string => typeof m === 'string') : undefined;
}

function usable(method: string, has: { secret: boolean; key: boolean }): method is TokenEndpointAuthMethod {
  switch (method) {
    case 'none':
      return true;
    case 'client_secret_basic':
    case 'client_secret_post':
      return has.secret;
    case 'private_key_jwt':
      return has.key;
    default:
      return false;
  }
}

/**
 * Picks the token endpoint authentication method: the one the registration named, if the
 * client can do it; otherwise the first of private_key_jwt, client_secret_basic,
 * client_secret_post, none that the authorization server lists and the client can do.
 * Without a list, RFC 8414's default (client_secret_basic) for clients with a secret,
 * `none` for public clients.
 *
 * @example
 * ```ts
 * chooseAuthMethod({ issuer, token_endpoint_auth_methods_supported: ['client_secret_post'] },
 *   { secret: true, key: false }); // 'client_secret_post'
 * ```
 */
export function chooseAuthMethod(
  as: AuthorizationServer,
  has: { secret: boolean; key: boolean },
  registered?: string,
): TokenEndpointAuthMethod {
  if (registered !== undefined && usable(registered, has)) return registered;
  const list = listed(as);
  if (list === undefined) {
    if (has.key) return 'private_key_jwt';
    return has.secret ? 'client_secret_basic' : 'none';
  }
  for (const m of KNOWN) if (list.includes(m) && usable(m, has)) return m;
  throw new AuthError(
    'InvalidConfiguration',
    `${as.issuer} accepts ${list.join(', ') || 'no'} token endpoint authentication, which this client cannot do`,
  );
}

/** The method to ask for in Dynamic Client Registration: `none` when listed, else a secret-based one. */
export function registrationAuthMethod(as: AuthorizationServer): TokenEndpointAuthMethod {
  const list = listed(as);
  if (list === undefined || list.includes('none')) return 'none';
  if (list.includes('client_secret_basic')) return 'client_secret_basic';
  if (list.includes('client_secret_post')) return 'client_secret_post';
  throw new AuthError(
    'RegistrationFailed',
    `${as.issuer} lists no token endpoint authentication mcpkit can register for`,
  );
}

function basicEncode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/**
 * `client_secret_basic` (RFC 6749 §2.3.1): the client id and secret form-encoded, then
 * Base64 in `Authorization: Basic`. Unlike oauth4webapi's, the RFC 3986 unreserved
 * characters (`-`, `.`, `_`, `~`) are left as they are: many servers (the conformance
 * suite's mocks among them) do not decode the credentials, and decoding leaves them alone.
 *
 * @example
 * ```ts
 * const auth = clientSecretBasic('s3cret'); // sends Basic base64("my-client:s3cret")
 * ```
 */
export function clientSecretBasic(secret: string): ClientAuth {
  if (secret === '')
    throw new AuthError('InvalidConfiguration', 'client_secret_basic needs a non-empty secret');
  return (_as, client, _body, headers) => {
    headers.set('authorization', `Basic ${btoa(`${basicEncode(client.client_id)}:${basicEncode(secret)}`)}`);
  };
}

/** The oauth4webapi client authentication for a resolved client. */
export async function clientAuthOf(client: ResolvedClient): Promise<ClientAuth> {
  switch (client.method) {
    case 'none':
      return None();
    case 'client_secret_basic':
      return clientSecretBasic(client.clientSecret!);
    case 'client_secret_post':
      return ClientSecretPost(client.clientSecret!);
    case 'private_key_jwt': {
      const k = client.privateKey!;
      if (!('pem' in k)) return PrivateKeyJwt(k);
      const { importPKCS8 } = await loadJose();
      const key = await importPKCS8(k.pem, k.alg);
      return PrivateKeyJwt(k.kid === undefined ? { key } : { key, kid: k.kid });
    }
  }
}
