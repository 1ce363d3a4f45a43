/**
 * Getting a client identity for an authorization server, in the MCP specification's order:
 * pre-registered credentials for that issuer; a Client ID Metadata Document when the server
 * supports them; a registration kept from earlier; Dynamic Client Registration (deprecated in
 * 2026-07-28, so its first use in a process warns).
 */
import { allowInsecureRequests, customFetch, dynamicClientRegistrationRequest } from 'oauth4webapi';
import type { AuthorizationServer } from 'oauth4webapi';
import { warnDeprecated } from '../../protocol/deprecation.js';
import { AuthError } from '../errors.js';
import { chooseAuthMethod, registrationAuthMethod } from './client-auth.js';
import type { ClientKey, ResolvedClient, TokenEndpointAuthMethod } from './client-auth.js';
import type { GuardedFetch } from './guarded-fetch.js';
import { checkRedirectUri } from './interaction.js';
import type { CredentialStore, StoredClient } from './store.js';

/**
 * Credentials registered with an authorization server beforehand. Give `issuer` when you
 * know it: the credentials are then used with that server only. Without it they bind to the
 * first authorization server they are used with, and are refused for any other.
 */
export interface PreRegisteredClient {
  clientId: string;
  clientSecret?: string;
  privateKey?: ClientKey;
  issuer?: string;
  /** Use this method instead of choosing from the server's list. */
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
}

/** What registration needs to know about the client. */
export interface RegistrationContext {
  fetcher: GuardedFetch;
  store: CredentialStore;
  preRegistered: readonly PreRegisteredClient[];
  /** Issuers that issuer-less pre-registered credentials were bound to. */
  bindings: Map<PreRegisteredClient, string>;
  /** The authorization code flow's redirect URI; absent for machine-to-machine grants. */
  redirectUri?: string;
  /** An https URL whose document describes this client (CIMD). */
  clientMetadataUrl?: string;
  /** Extra client metadata for Dynamic Client Registration (`client_name`, `client_uri`...). */
  clientMetadata: Record<string, unknown>;
  /** Whether Dynamic Client Registration may be used (default true). */
  dynamicRegistration: boolean;
  /**
   * The grant is jwt-bearer (EMA §5): a client not pre-registered may use its Client ID
   * Metadata Document as its client ID, without a redirect URI.
   */
  assertionGrant?: boolean;
}

function fromPreRegistered(p: PreRegisteredClient, as: AuthorizationServer): ResolvedClient {
  const has = { secret: p.clientSecret !== undefined, key: p.privateKey !== undefined };
  const method = p.tokenEndpointAuthMethod ?? chooseAuthMethod(as, has);
  const out: ResolvedClient = { clientId: p.clientId, method, source: 'pre-registered' };
  if (p.clientSecret !== undefined) out.clientSecret = p.clientSecret;
  if (p.privateKey !== undefined) out.privateKey = p.privateKey;
  return out;
}

function preRegisteredFor(ctx: RegistrationContext, issuer: string): PreRegisteredClient | undefined {
  const exact = ctx.preRegistered.find((p) => p.issuer === issuer);
  if (exact) return exact;
  const open = ctx.preRegistered.find((p) => p.issuer === undefined);
  if (!open) return undefined;
  const bound = ctx.bindings.get(open);
  if (bound !== undefined && bound !== issuer) {
    throw new AuthError(
      'IssuerMismatch',
      `The pre-registered client ${open.clientId} was used with ${bound}; the server now names ${issuer}. ` +
        'Configure credentials for that authorization server.',
    );
  }
  ctx.bindings.set(open, issuer);
  return open;
}

/** Checks a Client ID Metadata Document URL: https with a path (the draft's rule). */
export function checkClientMetadataUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AuthError('InvalidConfiguration', `clientMetadataUrl ${value} is not an absolute URL`);
  }
  if (url.protocol !== 'https:' || url.pathname === '/' || url.hash !== '') {
    throw new AuthError('InvalidConfiguration', 'clientMetadataUrl must be an https URL with a path');
  }
  return value;
}

function storedIsUsable(c: StoredClient | undefined, redirectUri: string | undefined): c is StoredClient {
  if (!c) return false;
  const now = Math.floor(Date.now() / 1000);
  if (
    c.client_secret_expires_at !== undefined &&
    c.client_secret_expires_at !== 0 &&
    c.client_secret_expires_at <= now
  ) {
    return false;
  }
  return redirectUri === undefined || (c.redirect_uris ?? []).includes(redirectUri);
}

function fromStored(c: StoredClient, as: AuthorizationServer): ResolvedClient {
  const has = { secret: c.client_secret !== undefined, key: false };
  const out: ResolvedClient = {
    clientId: c.client_id,
    method: chooseAuthMethod(as, has, c.token_endpoint_auth_method),
    source: 'dynamic-registration',
  };
  if (c.client_secret !== undefined) out.clientSecret = c.client_secret;
  return out;
}

async function readRegistration(response: Response): Promise<StoredClient> {
  let body: Record<string, unknown> = {};
  try {
    body = (await response.json()) as Record<string, unknown>;
  } catch {
    // Reported below.
  }
  if (response.status !== 201 && response.status !== 200) {
    const why = typeof body.error === 'string' ? `${body.error} ${String(body.error_description ?? '')}` : '';
    throw new AuthError(
      'RegistrationFailed',
      `Dynamic Client Registration answered ${response.status} ${why}`.trim(),
    );
  }
  if (
    typeof body !== 'object' ||
    body === null ||
    typeof body.client_id !== 'string' ||
    body.client_id === ''
  ) {
    throw new AuthError('RegistrationFailed', 'Dynamic Client Registration returned no client_id');
  }
  const out: StoredClient = { client_id: body.client_id };
  if (typeof body.client_secret === 'string' && body.client_secret !== '')
    out.client_secret = body.client_secret;
  if (typeof body.client_secret_expires_at === 'number')
    out.client_secret_expires_at = body.client_secret_expires_at;
  if (typeof body.token_endpoint_auth_method === 'string')
    out.token_endpoint_auth_method = body.token_endpoint_auth_method;
  if (Array.isArray(body.redirect_uris))
    out.redirect_uris = body.redirect_uris.filter((u) => typeof u === 'string');
  return out;
}

async function register(
  ctx: RegistrationContext,
  as: AuthorizationServer,
  redirectUri: string,
): Promise<StoredClient> {
  const method = registrationAuthMethod(as);
  const metadata = {
    client_name: 'mcpkit',
    ...ctx.clientMetadata,
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: method,
    application_type: checkRedirectUri(redirectUri),
  };
  const response = await dynamicClientRegistrationRequest(as, metadata, {
    [customFetch]: ctx.fetcher.custom,
    // The guarded fetch enforces the network policy (https, or http on allowed loopback).
    [allowInsecureRequests]: true,
  });
  const client = await readRegistration(response);
  // Some servers echo nothing back: what was asked for is what was registered.
  client.redirect_uris ??= [redirectUri];
  if (client.token_endpoint_auth_method === undefined && client.client_secret === undefined) {
    client.token_endpoint_auth_method = method;
  }
  return client;
}

/**
 * Resolves the client identity to use with `as`; `forRefresh` accepts a kept registration
 * whatever its redirect URIs. Throws `RegistrationFailed` when there is no way to get one,
 * `IssuerMismatch` when pre-registered credentials belong elsewhere.
 *
 * @example
 * ```ts
 * const client = await resolveClient(ctx, discovery.as);
 * client.source; // 'dynamic-registration'
 * ```
 */
export async function resolveClient(
  ctx: RegistrationContext,
  as: AuthorizationServer,
  forRefresh = false,
): Promise<ResolvedClient> {
  const pre = preRegisteredFor(ctx, as.issuer);
  if (pre) return fromPreRegistered(pre, as);
  const redirectUri = ctx.redirectUri;
  const cimd = ctx.clientMetadataUrl !== undefined && as.client_id_metadata_document_supported === true;
  if (cimd && (redirectUri !== undefined || ctx.assertionGrant === true)) {
    return { clientId: ctx.clientMetadataUrl!, method: 'none', source: 'metadata-document' };
  }
  if (redirectUri === undefined) {
    throw new AuthError('RegistrationFailed', `No pre-registered client credentials for ${as.issuer}`);
  }
  const record = await ctx.store.get(as.issuer);
  // A refresh does not use the redirect URI: a registration made for another port still works.
  if (storedIsUsable(record?.client, forRefresh ? undefined : redirectUri))
    return fromStored(record!.client!, as);
  if (typeof as.registration_endpoint !== 'string' || !ctx.dynamicRegistration) {
    throw new AuthError(
      'RegistrationFailed',
      `Cannot register with ${as.issuer}: no pre-registered credentials, no Client ID Metadata Document support` +
        `${ctx.clientMetadataUrl === undefined ? ' (no clientMetadataUrl configured)' : ''}, no registration endpoint`,
    );
  }
  warnDeprecated(
    'dynamic-client-registration',
    `Registering with ${as.issuer} through Dynamic Client Registration, which is deprecated in MCP 2026-07-28; ` +
      'serve a Client ID Metadata Document and set clientMetadataUrl, or pre-register the client',
  );
  const client = await register(ctx, as, redirectUri);
  const latest = await ctx.store.get(as.issuer);
  await ctx.store.set(as.issuer, { ...latest, issuer: as.issuer, client });
  return fromStored(client, as);
}

/** Forgets a dynamically registered client (after the server refused it as `invalid_client`). */
export async function forgetRegistration(store: CredentialStore, issuer: string): Promise<void> {
  const record = await store.get(issuer);
  if (!record?.client) return;
  delete record.client;
  await store.set(issuer, record);
}
