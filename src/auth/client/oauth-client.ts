/**
 * The OAuth 2.1 client of one MCP server: discovery, registration, the grant, refresh and
 * step-up, behind a `fetch` the HTTP transports use. Browser-safe (no Node APIs).
 */
import type { AuthorizationServer } from 'oauth4webapi';
import { AuthError } from '../errors.js';
import { authFetch } from './auth-fetch.js';
import type { TokenSource } from './auth-fetch.js';
import { authRequester } from './auth-requester.js';
import type { HttpRequester } from '../../transports/http-client/requester.js';
import { authorizationCodeGrant, requireS256 } from './authorization-code.js';
import type { ResolvedClient } from './client-auth.js';
import type { AssertionProvider } from './cross-app-access.js';
import { discover } from './discovery.js';
import { DPOP_ALG, DpopProver } from './dpop.js';
import type { Discovery } from './discovery.js';
import { clientCredentialsGrant, jwtBearerGrant, oauthErrorOf, refreshGrant } from './grants.js';
import type { GrantContext } from './grants.js';
import { GuardedFetch } from './guarded-fetch.js';
import { checkRedirectUri } from './interaction.js';
import type { AuthorizationInteraction } from './interaction.js';
import { isLoopbackUrl } from './network-policy.js';
import type { NetworkPolicy } from './network-policy.js';
import { checkClientMetadataUrl, forgetRegistration, resolveClient } from './registration.js';
import type { PreRegisteredClient, RegistrationContext } from './registration.js';
import { MemoryCredentialStore } from './store.js';
import type { CredentialStore, StoredTokens } from './store.js';
import { parseWwwAuthenticate, scopeSet } from './www-authenticate.js';
import type { BearerChallenge } from './www-authenticate.js';

/** How the client gets tokens. */
export type OAuthGrant =
  /** A user authorizes in a browser (the default); needs an `interaction`. */
  | 'authorization_code'
  /** The client acts for itself, with pre-registered credentials (a secret or a private key). */
  | 'client_credentials'
  /** RFC 7523: an assertion (cross-app access: an ID-JAG from {@link crossAppAccess}) for a token. */
  | { type: 'jwt_bearer'; assertion: AssertionProvider };

/** Options of {@link OAuthClient}. */
export interface OAuthClientOptions {
  /** The MCP endpoint the tokens are for. */
  serverUrl: string | URL;
  grant?: OAuthGrant;
  /** Shows the user the authorization URL (authorization code grant). */
  interaction?: AuthorizationInteraction;
  /** Credentials registered beforehand, preferably with their `issuer`. */
  preRegistered?: PreRegisteredClient | readonly PreRegisteredClient[];
  /**
   * An https URL serving this client's Client ID Metadata Document: its client ID wherever the
   * authorization server advertises `client_id_metadata_document_supported` and no credentials
   * were pre-registered, before any Dynamic Client Registration (also for the jwt-bearer grant).
   */
  clientMetadataUrl?: string;
  /**
   * Client metadata for Dynamic Client Registration (`client_name`, `client_uri`, `logo_uri`...).
   *
   * @deprecated Dynamic Client Registration is deprecated (MCP 2026-07-28): serve a Client ID
   * Metadata Document and give {@link OAuthClientOptions.clientMetadataUrl} instead.
   */
  clientMetadata?: Record<string, unknown>;
  /**
   * Allow Dynamic Client Registration, the fallback when the server supports no Client ID
   * Metadata Documents (default true; its first use warns once, see `warnDeprecated`).
   *
   * @deprecated Dynamic Client Registration is deprecated (MCP 2026-07-28): use
   * {@link OAuthClientOptions.clientMetadataUrl} (a Client ID Metadata Document) or
   * {@link OAuthClientOptions.preRegistered} instead. Set `false` to never register.
   */
  dynamicRegistration?: boolean;
  /** Where registrations and tokens are kept, per issuer (default: in memory). */
  store?: CredentialStore;
  /**
   * What OAuth requests may reach (default: public https; loopback too when the server is on
   * loopback). On Node, names are resolved and checked too, and connections go only to the
   * checked addresses; in browsers only the URL's host is checked unless `resolveHost` is set.
   */
  network?: NetworkPolicy;
  /**
   * The fetch under everything (default: the global one for the MCP requests; on Node, for
   * the OAuth requests, one that connects only to checked addresses). A fetch given here
   * makes its own connections: names are still resolved and checked first on Node, but the
   * fetch resolves them again.
   */
  fetch?: typeof fetch;
  /** Request exactly these scopes (space-separated) instead of the spec's selection. */
  scope?: string;
  /** Ask for `offline_access` when the authorization server offers it (default true). */
  offlineAccess?: boolean;
  /** Authorizations (including step-ups) one request may trigger before giving up (default 3). */
  maxAuthorizationAttempts?: number;
  /** Use the 2025-03-26 discovery fallbacks when the server has no resource metadata (default true). */
  legacyFallbacks?: boolean;
  /** Chooses among several authorization servers (default: the first). */
  selectAuthorizationServer?: (issuers: readonly string[]) => string;
  /**
   * DPoP-bound tokens (RFC 9449, SEP-1932): `true` or a {@link DpopProver} always, `false`
   * never; by default, whenever the authorization server advertises ES256 in
   * `dpop_signing_alg_values_supported` (with a key generated for this client).
   */
  dpop?: boolean | DpopProver;
}

const REFRESH_SKEW_S = 30;

/**
 * The scope to request (the MCP specification's selection): `scope` when fixed, else the
 * challenge's, else the protected resource metadata's `scopes_supported`; added to
 * `requested` (the scopes asked for before, so a step-up asks for their union), plus
 * `offline_access` when wanted and offered. Undefined when there is nothing to ask for.
 *
 * @example
 * ```ts
 * const requested = new Set(['mcp:read']);
 * selectScope(requested, { scope: 'mcp:write' }, discovery, { offlineAccess: false }); // 'mcp:read mcp:write'
 * ```
 */
export function selectScope(
  requested: Set<string>,
  challenge: BearerChallenge | undefined,
  d: Discovery,
  options: { scope?: string | undefined; offlineAccess: boolean },
): string | undefined {
  const fixed = options.scope;
  const prmScopes = d.resourceMetadata?.scopes_supported;
  const base =
    fixed !== undefined
      ? scopeSet(fixed)
      : challenge?.scope !== undefined
        ? scopeSet(challenge.scope)
        : new Set(Array.isArray(prmScopes) ? prmScopes.filter((s) => typeof s === 'string') : []);
  for (const s of base) requested.add(s);
  if (requested.size === 0) return undefined;
  const out = new Set(requested);
  const offered = d.as.scopes_supported;
  if (options.offlineAccess && Array.isArray(offered) && offered.includes('offline_access'))
    out.add('offline_access');
  return [...out].join(' ');
}

/** Refuses an authorization server that does not list the assertion's grant profile (EMA §6). */
function checkGrantProfile(as: AuthorizationServer, profile: string | undefined): void {
  if (profile === undefined) return;
  const listed = as.authorization_grant_profiles_supported;
  if (Array.isArray(listed) && listed.includes(profile)) return;
  throw new AuthError(
    'InvalidConfiguration',
    `${as.issuer} does not list ${profile} in authorization_grant_profiles_supported`,
  );
}

function expired(t: StoredTokens): boolean {
  return t.expires_at !== undefined && t.expires_at - REFRESH_SKEW_S <= Date.now() / 1000;
}

/**
 * An OAuth 2.1 client for one MCP server. Give its {@link OAuthClient.fetch} to the HTTP
 * transport: requests carry the bearer token, and a 401 or a 403 `insufficient_scope` runs
 * discovery, registration and the grant, then retries.
 *
 * @example
 * ```ts
 * const oauth = new OAuthClient({ serverUrl: 'https://mcp.example.com/mcp', interaction: await loopbackInteraction() });
 * const transport = new StreamableHttpClientTransport({ url: oauth.serverUrl, auth: oauth });
 * await client.connect(transport);
 * ```
 */
export class OAuthClient implements TokenSource {
  readonly serverUrl: URL;
  /** A fetch that authorizes like the transports' `auth: oauth` option, for `fetch`-based code. */
  readonly fetch: typeof fetch;
  private readonly options: OAuthClientOptions;
  private readonly guarded: GuardedFetch;
  private readonly store: CredentialStore;
  private readonly registration: RegistrationContext;
  private discovery: Discovery | undefined;
  private discoveredFrom: string | undefined;
  private client: { issuer: string; client: ResolvedClient } | undefined;
  private tokens: StoredTokens | undefined;
  private requested = new Set<string>();
  private flight: Promise<void> | undefined;
  /** The DPoP key in use, once a DPoP-bound token was asked for. */
  private prover: DpopProver | undefined;

  constructor(options: OAuthClientOptions) {
    this.options = options;
    this.serverUrl = new URL(options.serverUrl);
    const grant = options.grant ?? 'authorization_code';
    if (grant === 'authorization_code') {
      if (!options.interaction) {
        throw new AuthError('InvalidConfiguration', 'The authorization code grant needs an interaction');
      }
      checkRedirectUri(options.interaction.redirectUri);
    }
    if (options.clientMetadataUrl !== undefined) checkClientMetadataUrl(options.clientMetadataUrl);
    const network = { allowLoopback: isLoopbackUrl(this.serverUrl), ...options.network };
    const base = options.fetch;
    this.guarded = this.guardedFetch(network, base);
    this.store = options.store ?? new MemoryCredentialStore();
    const pre = options.preRegistered;
    this.registration = {
      fetcher: this.guarded,
      store: this.store,
      preRegistered: pre === undefined ? [] : Array.isArray(pre) ? pre : [pre as PreRegisteredClient],
      bindings: new Map(),
      clientMetadata: options.clientMetadata ?? {},
      dynamicRegistration: options.dynamicRegistration !== false,
      assertionGrant: typeof grant === 'object',
    };
    if (grant === 'authorization_code') this.registration.redirectUri = options.interaction!.redirectUri;
    if (options.clientMetadataUrl !== undefined)
      this.registration.clientMetadataUrl = options.clientMetadataUrl;
    this.fetch = authFetch(this, base, options.maxAuthorizationAttempts ?? 3);
  }

  /**
   * The fetch every OAuth request goes through (discovery, registration, tokens), built once
   * by the constructor. `mcpkit/auth` on Node overrides it so that names are resolved and
   * connections go only to the addresses checked; override it to bring another network.
   */
  protected guardedFetch(policy: NetworkPolicy, base: typeof fetch | undefined): GuardedFetch {
    return new GuardedFetch(base ? { policy, fetch: base } : { policy });
  }

  /**
   * Wraps a transport's requester with the token and 401/403 recovery: what the transports'
   * `auth` option calls. `new StreamableHttpClientTransport({ url, auth: oauth })` keeps the
   * transport on its fast requester (undici on Node) instead of `fetch`.
   */
  wrapRequester(inner: HttpRequester): HttpRequester {
    return authRequester(this, inner, this.options.maxAuthorizationAttempts ?? 3);
  }

  /** The issuer of the authorization server in use, once discovered. */
  get issuer(): string | undefined {
    return this.discovery?.as.issuer;
  }

  /** The scope of the current token, if any. */
  get grantedScope(): string | undefined {
    return this.tokens?.scope;
  }

  /** The current access token, refreshed first when it expired; undefined before authorization. */
  async accessToken(): Promise<string | undefined> {
    if (this.flight) await this.flight.catch(() => undefined);
    const t = this.tokens;
    if (!t || !expired(t)) return t?.access_token;
    if (t.refresh_token !== undefined && this.discovery) {
      try {
        await this.single(() => this.refresh(this.discovery!, t));
        return this.tokens?.access_token;
      } catch {
        // Fall through: the next 401 starts over.
      }
    }
    this.tokens = undefined;
    return undefined;
  }

  /**
   * Authorizes now, without waiting for a 401: discovery through the well-known URLs, then
   * the grant. Useful before connecting, so a long user interaction does not run inside a
   * request's timeout.
   */
  async authorize(): Promise<void> {
    await this.single(() => this.run(undefined, undefined, false));
  }

  /** Recovers from a 401 (reuse, refresh or authorize) or a 403 `insufficient_scope` (step up). */
  async recover(
    status: 401 | 403,
    challenge: BearerChallenge | undefined,
    failedToken: string | undefined,
  ): Promise<void> {
    if (this.flight) return this.flight;
    if (status === 401 && this.tokens !== undefined && this.tokens.access_token !== failedToken) return;
    await this.single(() => this.run(challenge, failedToken, status === 403));
  }

  /** The DPoP proof for a request carrying `token`, when it is a DPoP-bound token of ours. */
  async proofFor(token: string, method: string, url: string): Promise<string | undefined> {
    const t = this.tokens;
    if (!this.prover || t?.token_type !== 'DPoP' || t.access_token !== token) return undefined;
    return this.prover.proof(method, url, token);
  }

  /** Keeps the MCP server's DPoP nonces; true for a `use_dpop_nonce` challenge worth a retry. */
  observe(status: number, headers: Headers, url: string): boolean {
    if (!this.prover) return false;
    const fresh = this.prover.rememberNonce(url, headers);
    if (!fresh || status !== 401) return false;
    const value = headers.get('www-authenticate') ?? '';
    return parseWwwAuthenticate(value).some(
      (c) => c.scheme.toLowerCase() === 'dpop' && c.params.error === 'use_dpop_nonce',
    );
  }

  /** Forgets the tokens for this server, here and in the store. */
  async signOut(): Promise<void> {
    this.tokens = undefined;
    this.requested.clear();
    if (this.discovery) await this.forgetTokens(this.discovery);
  }

  private async single(work: () => Promise<void>): Promise<void> {
    if (this.flight) return this.flight;
    this.flight = work().finally(() => (this.flight = undefined));
    return this.flight;
  }

  /** Discovery, from cache unless the pointer changed or `fresh` (our token was refused: the server may have moved). */
  private async discoverFor(challenge: BearerChallenge | undefined, fresh: boolean): Promise<Discovery> {
    const from = challenge?.resourceMetadata;
    const same = from === undefined || from === this.discoveredFrom;
    if (this.discovery && same && !fresh) return this.discovery;
    const preferIssuers = this.registration.preRegistered.flatMap((p) =>
      p.issuer === undefined ? [] : [p.issuer],
    );
    const d = await discover(this.guarded, this.serverUrl, challenge, {
      legacyFallbacks: this.options.legacyFallbacks !== false,
      ...(this.options.selectAuthorizationServer
        ? { selectAuthorizationServer: this.options.selectAuthorizationServer }
        : {}),
      preferIssuers,
    });
    if (this.discovery && this.discovery.as.issuer !== d.as.issuer) {
      // Another authorization server: nothing of the old one may be used with it.
      this.tokens = undefined;
      this.client = undefined;
      this.requested.clear();
    }
    this.discovery = d;
    this.discoveredFrom = from;
    return d;
  }

  private async clientFor(as: AuthorizationServer): Promise<ResolvedClient> {
    if (this.client?.issuer === as.issuer) return this.client.client;
    const client = await resolveClient(this.registration, as);
    this.client = { issuer: as.issuer, client };
    return client;
  }

  private async context(d: Discovery): Promise<GrantContext> {
    const ctx: GrantContext = {
      fetcher: this.guarded,
      as: d.as,
      client: await this.clientFor(d.as),
      resource: d.resource,
    };
    const dpop = await this.dpopFor(d.as);
    if (dpop) ctx.dpop = dpop;
    return ctx;
  }

  /** The DPoP prover to use with this authorization server, if any (see `dpop`). */
  private async dpopFor(as: AuthorizationServer): Promise<DpopProver | undefined> {
    const option = this.options.dpop;
    if (option === false) return undefined;
    if (option instanceof DpopProver) return (this.prover = option);
    const algs = as.dpop_signing_alg_values_supported;
    if (option !== true && !(Array.isArray(algs) && algs.includes(DPOP_ALG))) return undefined;
    return (this.prover ??= await DpopProver.generate());
  }

  /** The spec's scope selection, united with earlier requests (see {@link selectScope}). */
  private selectScope(challenge: BearerChallenge | undefined, d: Discovery): string | undefined {
    const wantsOffline = this.options.offlineAccess !== false && this.grantType() === 'authorization_code';
    return selectScope(this.requested, challenge, d, {
      scope: this.options.scope,
      offlineAccess: wantsOffline,
    });
  }

  private grantType(): string {
    const g = this.options.grant ?? 'authorization_code';
    return typeof g === 'string' ? g : 'urn:ietf:params:oauth:grant-type:jwt-bearer';
  }

  /** Tokens kept from earlier (another process, another connection), refreshed if needed. */
  private async fromStore(d: Discovery, failedToken: string | undefined): Promise<boolean> {
    const stored = (await this.store.get(d.as.issuer))?.tokens?.[d.resource];
    if (!stored) return false;
    for (const s of scopeSet(stored.requested_scope)) this.requested.add(s);
    if (stored.access_token !== failedToken && !expired(stored)) {
      this.tokens = stored;
      return true;
    }
    if (stored.refresh_token === undefined) return false;
    try {
      await this.refresh(d, stored);
      return true;
    } catch {
      return false;
    }
  }

  private async refresh(d: Discovery, t: StoredTokens): Promise<void> {
    let fresh: StoredTokens;
    try {
      const cached = this.client?.issuer === d.as.issuer ? this.client.client : undefined;
      const client = cached ?? (await resolveClient(this.registration, d.as, true));
      const ctx: GrantContext = { fetcher: this.guarded, as: d.as, client, resource: d.resource };
      // A DPoP-bound refresh token is bound too (RFC 9449 §5).
      if (t.token_type === 'DPoP' && this.prover) ctx.dpop = this.prover;
      fresh = await refreshGrant(ctx, t);
    } catch (e) {
      if (oauthErrorOf(e) === 'invalid_grant') await this.forgetTokens(d);
      throw e;
    }
    await this.save(d, fresh);
  }

  private async forgetTokens(d: Discovery): Promise<void> {
    const record = await this.store.get(d.as.issuer);
    if (record?.tokens?.[d.resource]) {
      delete record.tokens[d.resource];
      await this.store.set(d.as.issuer, record);
    }
  }

  private async save(d: Discovery, tokens: StoredTokens): Promise<void> {
    this.tokens = tokens;
    const issuer = d.as.issuer;
    const record = (await this.store.get(issuer)) ?? { issuer };
    record.tokens = { ...record.tokens, [d.resource]: tokens };
    await this.store.set(issuer, record);
  }

  private async run(
    challenge: BearerChallenge | undefined,
    failedToken: string | undefined,
    stepUp: boolean,
  ): Promise<void> {
    const d = await this.discoverFor(challenge, failedToken !== undefined && !stepUp);
    if (!stepUp && (await this.fromStore(d, failedToken))) return;
    const grant = this.options.grant ?? 'authorization_code';
    // Checked before registering: nothing is sent to a server that will be refused anyway.
    if (grant === 'authorization_code') requireS256(d.as);
    const scope = this.selectScope(challenge, d);
    const listed = d.as.grant_types_supported;
    if (Array.isArray(listed) && grant !== 'authorization_code' && !listed.includes(this.grantType())) {
      throw new AuthError(
        'InvalidConfiguration',
        `${d.as.issuer} does not support the ${this.grantType()} grant`,
      );
    }
    if (typeof grant === 'object') checkGrantProfile(d.as, grant.assertion.grantProfile);
    const ctx = await this.context(d);
    let tokens: StoredTokens;
    try {
      if (grant === 'authorization_code') {
        tokens = await authorizationCodeGrant(ctx, this.options.interaction!, scope);
      } else if (grant === 'client_credentials') {
        tokens = await clientCredentialsGrant(ctx, scope);
      } else {
        const assertion = await grant.assertion({
          issuer: d.as.issuer,
          resource: d.resource,
          fetch: this.guarded,
          ...(scope !== undefined ? { scope } : {}),
        });
        tokens = await jwtBearerGrant(ctx, assertion, scope);
      }
    } catch (e) {
      if (oauthErrorOf(e) === 'invalid_client' && ctx.client.source === 'dynamic-registration') {
        // A registration the server no longer knows: register again next time.
        this.client = undefined;
        await forgetRegistration(this.store, d.as.issuer);
      }
      throw e;
    }
    await this.save(d, tokens);
  }
}
