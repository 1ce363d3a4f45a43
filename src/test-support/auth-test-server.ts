/**
 * A small OAuth 2.1 authorization server for the auth tests, on node:http at 127.0.0.1,
 * issuing ES256 JWT access tokens with jose. It is strict where a real one would be (PKCE
 * S256, single-use codes, exact redirect URIs, resource binding, client authentication) and
 * has knobs to turn it hostile (wrong issuer, no S256, bad endpoints, wrong `iss`). It also
 * plays the identity provider of cross-app access (token exchange for an ID-JAG). Named
 * `*.test.helpers.ts`: neither run as a test nor shipped.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EmbeddedJWK, SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import { authenticateClient } from './auth-test-server-parts.js';
import { ID_JAG_PROFILE, exchangeForIdJag, redeemIdJag } from './auth-test-server-id-jag.js';
import type { IdpPolicyRequest, TrustedIdp } from './auth-test-server-id-jag.js';
import type { JSONWebKeySet, JWTPayload } from 'jose';

export interface TestClient {
  client_id: string;
  client_secret?: string;
  /** The only method this client may use. */
  method: string;
  redirect_uris?: string[];
  /** Public key for private_key_jwt. */
  publicKey?: CryptoKey;
}

export interface TestAsOptions {
  /** The issuer's path (`/tenant1`); default none. */
  issuerPath?: string;
  /** Where metadata is served; default the RFC 8414 path-inserted URL. `root`: at the origin's RFC 8414 URL whatever the path. */
  metadataAt?: 'oauth' | 'oidc-inserted' | 'oidc-appended' | 'root' | 'none';
  /** Changes the metadata (hostile servers). */
  metadata?: (m: Record<string, unknown>) => Record<string, unknown>;
  tokenAuthMethods?: string[];
  grantTypes?: string[];
  scopesSupported?: string[];
  cimd?: boolean;
  dcr?: boolean;
  /** Send `iss` in authorization responses (and advertise it); a string sends that value instead. */
  iss?: boolean | string;
  clients?: TestClient[];
  accessTokenTtl?: number;
  /** Scope granted for a requested scope (default: as requested). */
  grant?: (requested: string | undefined) => string | undefined;
  /**
   * Identity providers whose ID-JAGs the jwt-bearer grant accepts (Enterprise-Managed
   * Authorization); when set, the metadata lists the ID-JAG profile in
   * `authorization_grant_profiles_supported`.
   */
  trustedIdps?: TrustedIdp[];
  /** As identity provider: the client_id ID-JAGs are issued for (the client's ID at the MCP authorization server). */
  jagClientId?: string;
  /** As identity provider: ID-JAG lifetime in seconds (negative: already expired). Default 300. */
  idJagTtl?: number;
  /** As identity provider: the scope granted for a token exchange, or false to deny it. Default: as requested. */
  idpPolicy?: (request: IdpPolicyRequest) => string | undefined | false;
  /**
   * DPoP (RFC 9449): advertise ES256 and bind the tokens of every token request that
   * carries a valid proof to its key (`cnf.jkt`, `token_type: DPoP`).
   */
  dpop?: boolean;
}

export interface LoggedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Record<string, string>;
  headers: IncomingMessage['headers'];
}

interface CodeGrant {
  client_id: string;
  redirect_uri: string;
  challenge: string;
  resource: string | undefined;
  scope: string | undefined;
  used: boolean;
}

const b64url = (b: Buffer): string => b.toString('base64url');
const sha256 = (s: string): string => b64url(createHash('sha256').update(s).digest());
export const random = (): string => b64url(randomBytes(18));

export class TestAuthServer {
  readonly requests: LoggedRequest[] = [];
  readonly clients = new Map<string, TestClient>();
  readonly codes = new Map<string, CodeGrant>();
  readonly refreshTokens = new Map<string, { client_id: string; resource?: string; scope?: string }>();
  /** Token requests: grant type and the client authentication method seen. */
  readonly tokenRequests: { grant: string; auth: string; body: Record<string, string> }[] = [];
  origin = '';
  issuer = '';
  private server: Server | undefined;
  /** The signing keys (ES256). */
  keys!: { publicKey: CryptoKey; privateKey: CryptoKey };
  private readonly kid = random();

  private constructor(readonly options: TestAsOptions) {
    for (const c of options.clients ?? []) this.clients.set(c.client_id, c);
  }

  /** A server on its own port. */
  static async start(options: TestAsOptions = {}): Promise<TestAuthServer> {
    const as = await TestAuthServer.create(options);
    as.server = createServer(as.listener);
    await new Promise<void>((r) => as.server!.listen(0, '127.0.0.1', () => r()));
    as.attach(`http://127.0.0.1:${(as.server.address() as AddressInfo).port}`);
    return as;
  }

  /** A server to mount in another one's listener (call {@link attach} once its origin is known). */
  static async create(options: TestAsOptions = {}): Promise<TestAuthServer> {
    const as = new TestAuthServer(options);
    as.keys = await generateKeyPair('ES256', { extractable: true });
    return as;
  }

  attach(origin: string): void {
    this.origin = origin;
    this.issuer = `${origin}${this.options.issuerPath ?? ''}`;
  }

  readonly listener = (req: IncomingMessage, res: ServerResponse): void => void this.handle(req, res);

  get publicKey(): CryptoKey {
    return this.keys.publicKey;
  }

  async jwks(): Promise<JSONWebKeySet> {
    return { keys: [{ ...(await exportJWK(this.keys.publicKey)), kid: this.kid, alg: 'ES256', use: 'sig' }] };
  }

  /** Signs any JWT with this server's key (tests mint expired or foreign-audience tokens with it). */
  sign(claims: JWTPayload, ttl: number | null = 300, typ = 'at+jwt'): Promise<string> {
    const jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: this.kid, typ })
      .setIssuer(this.issuer)
      .setIssuedAt()
      .setJti(random());
    if (ttl !== null) jwt.setExpirationTime(Math.floor(Date.now() / 1000) + ttl);
    return jwt.sign(this.keys.privateKey);
  }

  metadataDoc(): Record<string, unknown> {
    const o = this.options;
    const e = (p: string): string => `${this.issuer}${p}`;
    const m: Record<string, unknown> = {
      issuer: this.issuer,
      authorization_endpoint: e('/authorize'),
      token_endpoint: e('/token'),
      jwks_uri: e('/jwks'),
      introspection_endpoint: e('/introspect'),
      response_types_supported: ['code'],
      grant_types_supported: o.grantTypes ?? ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: o.tokenAuthMethods ?? [
        'none',
        'client_secret_basic',
        'client_secret_post',
      ],
    };
    if (o.dcr !== false) m.registration_endpoint = e('/register');
    if (o.scopesSupported) m.scopes_supported = o.scopesSupported;
    if (o.cimd) m.client_id_metadata_document_supported = true;
    if (o.dpop) m.dpop_signing_alg_values_supported = ['ES256'];
    if (o.trustedIdps) m.authorization_grant_profiles_supported = [ID_JAG_PROFILE];
    if (o.iss !== undefined && o.iss !== false) m.authorization_response_iss_parameter_supported = true;
    return o.metadata ? o.metadata(m) : m;
  }

  private metadataPath(): string | undefined {
    const p = this.options.issuerPath ?? '';
    switch (this.options.metadataAt ?? 'oauth') {
      case 'oauth':
        return `/.well-known/oauth-authorization-server${p}`;
      case 'oidc-inserted':
        return `/.well-known/openid-configuration${p}`;
      case 'oidc-appended':
        return `${p}/.well-known/openid-configuration`;
      case 'root':
        return '/.well-known/oauth-authorization-server';
      case 'none':
        return undefined;
    }
  }

  close(): Promise<void> {
    const server = this.server;
    if (!server) return Promise.resolve();
    server.closeAllConnections();
    return new Promise((r) => server.close(() => r()));
  }

  count(path: string): number {
    return this.requests.filter((r) => r.path === path).length;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.origin);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: Record<string, string> = {};
    if ((req.headers['content-type'] ?? '').includes('json') && text)
      body = JSON.parse(text) as Record<string, string>;
    else if (text) body = Object.fromEntries(new URLSearchParams(text));
    const log: LoggedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      body,
      headers: req.headers,
    };
    this.requests.push(log);
    const json = (status: number, value: unknown): void => {
      res
        .writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify(value));
    };
    const p = this.options.issuerPath ?? '';
    try {
      if (req.method === 'GET' && url.pathname === this.metadataPath()) return json(200, this.metadataDoc());
      if (req.method === 'GET' && url.pathname === `${p}/jwks`) return json(200, await this.jwks());
      if (req.method === 'GET' && url.pathname === `${p}/authorize`) return this.authorize(url, res);
      if (req.method === 'POST' && url.pathname === `${p}/token`) {
        const out = await this.token(log);
        return json(out.status, out.body);
      }
      if (req.method === 'POST' && url.pathname === `${p}/register` && this.options.dcr !== false) {
        return json(...this.register(body as unknown as Record<string, unknown>));
      }
      if (req.method === 'POST' && url.pathname === `${p}/introspect`)
        return json(200, await this.introspect(body.token));
      json(404, { error: 'not_found' });
    } catch (e) {
      json(500, { error: 'server_error', error_description: String(e) });
    }
  }

  private authorize(url: URL, res: ServerResponse): void {
    const q = url.searchParams;
    const clientId = q.get('client_id') ?? '';
    const redirect = q.get('redirect_uri') ?? '';
    const client = this.clients.get(clientId);
    const cimdOk = this.options.cimd === true && clientId.startsWith('https://');
    const redirectOk = cimdOk
      ? /^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(redirect)
      : client?.redirect_uris?.includes(redirect);
    if ((!client && !cimdOk) || !redirectOk) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('unknown client or redirect_uri');
      return;
    }
    const target = new URL(redirect);
    const state = q.get('state');
    if (state !== null) target.searchParams.set('state', state);
    const iss = this.options.iss;
    if (iss !== undefined && iss !== false) target.searchParams.set('iss', iss === true ? this.issuer : iss);
    const challenge = q.get('code_challenge');
    if (q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || !challenge) {
      target.searchParams.set('error', 'invalid_request');
    } else {
      const code = random();
      this.codes.set(code, {
        client_id: clientId,
        redirect_uri: redirect,
        challenge,
        resource: q.get('resource') ?? undefined,
        scope: q.get('scope') ?? undefined,
        used: false,
      });
      target.searchParams.set('code', code);
    }
    res.writeHead(302, { location: target.href }).end();
  }

  /** The key thumbprint a token request's DPoP proof binds its tokens to, if it has a valid one. */
  private async dpopKey(log: LoggedRequest): Promise<string | undefined> {
    const proof = log.headers.dpop;
    if (!this.options.dpop || typeof proof !== 'string') return undefined;
    const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt' });
    if (payload.htm !== 'POST' || payload.htu !== `${this.origin}${log.path}`) return undefined;
    return calculateJwkThumbprint(protectedHeader.jwk!, 'sha256');
  }

  private async accessToken(
    clientId: string,
    resource: string | undefined,
    scope: string | undefined,
    sub: string,
    jkt?: string,
  ) {
    const ttl = this.options.accessTokenTtl ?? 300;
    const claims: JWTPayload = { client_id: clientId, sub };
    if (resource !== undefined) claims.aud = resource;
    if (scope !== undefined) claims.scope = scope;
    if (jkt !== undefined) claims.cnf = { jkt };
    const body: Record<string, unknown> = {
      access_token: await this.sign(claims, ttl),
      token_type: jkt === undefined ? 'Bearer' : 'DPoP',
      expires_in: ttl,
    };
    if (scope !== undefined) body.scope = scope;
    return body;
  }

  private async token(log: LoggedRequest): Promise<{ status: number; body: Record<string, unknown> }> {
    const b = log.body;
    const err = (error: string, status = 400) => ({ status, body: { error } });
    if (b.grant_type === 'urn:ietf:params:oauth:grant-type:token-exchange')
      return exchangeForIdJag(this, log);
    const auth = await authenticateClient(this, log);
    this.tokenRequests.push({
      grant: b.grant_type ?? '',
      auth: 'error' in auth ? auth.error : auth.method,
      body: b,
    });
    if ('error' in auth) return err(auth.error, 401);
    const grant = this.options.grant ?? ((s) => s);
    const jkt = await this.dpopKey(log);
    switch (b.grant_type) {
      case 'authorization_code': {
        const code = this.codes.get(b.code ?? '');
        if (!code || code.used || code.client_id !== auth.id || code.redirect_uri !== b.redirect_uri) {
          return err('invalid_grant');
        }
        code.used = true;
        if (sha256(b.code_verifier ?? '') !== code.challenge) return err('invalid_grant');
        if (b.resource !== code.resource) return err('invalid_target');
        const scope = grant(code.scope);
        const body = await this.accessToken(auth.id, code.resource, scope, 'user-1', jkt);
        const refresh = random();
        this.refreshTokens.set(refresh, { client_id: auth.id, resource: code.resource, scope });
        return { status: 200, body: { ...body, refresh_token: refresh } };
      }
      case 'refresh_token': {
        const r = this.refreshTokens.get(b.refresh_token ?? '');
        if (!r || r.client_id !== auth.id || b.resource !== r.resource) return err('invalid_grant');
        this.refreshTokens.delete(b.refresh_token!);
        const next = random();
        this.refreshTokens.set(next, r);
        return {
          status: 200,
          body: {
            ...(await this.accessToken(auth.id, r.resource, r.scope, 'user-1', jkt)),
            refresh_token: next,
          },
        };
      }
      case 'client_credentials':
        if (auth.method === 'none') return err('unauthorized_client');
        return {
          status: 200,
          body: await this.accessToken(auth.id, b.resource, grant(b.scope), auth.id, jkt),
        };
      case 'urn:ietf:params:oauth:grant-type:jwt-bearer': {
        if (!this.options.trustedIdps) return err('unsupported_grant_type');
        const g = await redeemIdJag(this, b, auth.id);
        if ('status' in g) return g;
        // EMA §5.1: the token is audience-restricted to the MCP server the ID-JAG names.
        const body = await this.accessToken(auth.id, g.resource, grant(g.scope), g.subject, jkt);
        return { status: 200, body };
      }
      default:
        return err('unsupported_grant_type');
    }
  }

  private register(m: Record<string, unknown>): [number, unknown] {
    const uris = m.redirect_uris;
    if (!Array.isArray(uris) || uris.length === 0) return [400, { error: 'invalid_redirect_uri' }];
    const method =
      typeof m.token_endpoint_auth_method === 'string' ? m.token_endpoint_auth_method : 'client_secret_basic';
    const client: TestClient = { client_id: `dcr-${random()}`, method, redirect_uris: uris as string[] };
    if (method !== 'none') client.client_secret = random();
    this.clients.set(client.client_id, client);
    return [201, { ...m, ...client, token_endpoint_auth_method: method, client_secret_expires_at: 0 }];
  }

  private async introspect(token: string | undefined): Promise<Record<string, unknown>> {
    try {
      const { payload } = await jwtVerify(token ?? '', this.keys.publicKey, { issuer: this.issuer });
      return { active: true, ...payload };
    } catch {
      return { active: false };
    }
  }
}
