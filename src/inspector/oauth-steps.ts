/**
 * The OAuth debugger's step driver: the authorization flow of one protected Streamable HTTP
 * server, one step at a time, through mcpkit's own OAuth client functions (discovery,
 * registration, PKCE, the token and refresh grants, scope selection). Each step records
 * its HTTP exchanges and what it checked, and a failure is explained in plain words.
 */
import { AuthError, findAuthError } from '../auth/errors.js';
import {
  buildAuthorizationUrl,
  exchangeAuthorizationCode,
  requireS256,
  validateCallback,
} from '../auth/client/authorization-code.js';
import type { PendingAuthorization } from '../auth/client/authorization-code.js';
import type { ResolvedClient } from '../auth/client/client-auth.js';
import {
  canonicalResourceUri,
  discoverAuthorizationServer,
  discoverResourceMetadata,
} from '../auth/client/discovery.js';
import type { Discovery, ProtectedResourceMetadata } from '../auth/client/discovery.js';
import { refreshGrant } from '../auth/client/grants.js';
import type { GrantContext } from '../auth/client/grants.js';
import { headlessInteraction } from '../auth/client/interaction.js';
import type { AuthorizationCallback } from '../auth/client/interaction.js';
import { isLoopbackUrl } from '../auth/client/network-policy.js';
import type { NetworkPolicy } from '../auth/client/network-policy.js';
import { selectScope } from '../auth/client/oauth-client.js';
import { checkClientMetadataUrl, resolveClient } from '../auth/client/registration.js';
import { MemoryCredentialStore } from '../auth/client/store.js';
import type { StoredTokens } from '../auth/client/store.js';
import { bearerChallengeOf, parseWwwAuthenticate } from '../auth/client/www-authenticate.js';
import type { BearerChallenge } from '../auth/client/www-authenticate.js';
import type { Client } from '../client/client.js';
import { explain } from './oauth-explain.js';
import { STEP_IDS, STEP_TITLES, hasS256, issuerIn, newId, shownTokens } from './oauth-flow-types.js';
import type { FlowSnapshot, FlowStep, OAuthFlowOptions } from './oauth-flow-types.js';
import { RecordingGuardedFetch, connectRecorded, mask, recordingMcpFetch } from './oauth-exchanges.js';
import type { HttpExchange } from './oauth-exchanges.js';

/**
 * The authorization flow of one server, step by step.
 *
 * @example
 * ```ts
 * const flow = new OAuthFlow({ serverUrl: 'http://127.0.0.1:3000/mcp', redirectUri: 'http://127.0.0.1:6274/oauth/callback' });
 * await flow.next(); // the 401 challenge
 * ```
 */
export class OAuthFlow {
  readonly id = newId();
  readonly steps: FlowStep[];
  private readonly serverUrl: URL;
  private readonly era: 'legacy' | 'modern';
  private readonly guard: 'strict' | 'loopback';
  private readonly timeoutMs: number;
  private readonly fetcher: RecordingGuardedFetch;
  private current: FlowStep | undefined;
  private challenge: BearerChallenge | undefined;
  private prm: ProtectedResourceMetadata | undefined;
  private discovery: Discovery | undefined;
  private client: ResolvedClient | undefined;
  private pending: { step: FlowStep; auth: PendingAuthorization; scope: string | undefined } | undefined;
  private tokens: StoredTokens | undefined;
  /** The validated authorization response, for the token step. */
  private code:
    { auth: PendingAuthorization; params: URLSearchParams; scope: string | undefined } | undefined;
  private readonly requested = new Set<string>();
  private mcp: Client | undefined;
  private tools: string[] = [];
  private readonly store = new MemoryCredentialStore();

  constructor(private readonly options: OAuthFlowOptions) {
    this.serverUrl = new URL(options.serverUrl);
    if (this.serverUrl.protocol !== 'http:' && this.serverUrl.protocol !== 'https:')
      throw new AuthError('InvalidConfiguration', 'The server URL must be http or https');
    if (options.clientMetadataUrl) checkClientMetadataUrl(options.clientMetadataUrl);
    this.era = options.era ?? 'legacy';
    this.guard = options.guard ?? 'loopback';
    this.timeoutMs = options.timeoutMs ?? 10_000;
    const policy: NetworkPolicy = {
      allowLoopback: this.guard === 'loopback' && isLoopbackUrl(this.serverUrl),
    };
    const guarded = { policy, ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}) };
    this.fetcher = new RecordingGuardedFetch(
      guarded,
      (ex) => this.current?.exchanges.push(ex),
      this.timeoutMs,
    );
    this.steps = STEP_IDS.map((id) => ({
      id,
      title: STEP_TITLES[id],
      status: 'pending',
      exchanges: [],
      checks: [],
      facts: {},
    }));
  }

  snapshot(): FlowSnapshot {
    const next = this.nextStep();
    return {
      id: this.id,
      serverUrl: this.serverUrl.href,
      era: this.era,
      guard: this.guard,
      timeoutMs: this.timeoutMs,
      redirectUri: this.options.redirectUri,
      steps: this.steps,
      ...(next ? { next: next.id } : {}),
      ...(this.pending ? { waitingState: this.pending.auth.state } : {}),
    };
  }

  private nextStep(): FlowStep | undefined {
    if (this.steps.some((s) => s.status === 'failed' || s.status === 'running' || s.status === 'waiting'))
      return undefined;
    return this.steps.find((s) => s.status === 'pending');
  }

  /** Runs the next step; resolves with it once it passed, failed, or waits for the user. */
  async next(): Promise<FlowStep> {
    const step = this.nextStep();
    if (!step) {
      const waiting = this.steps.find((s) => s.status === 'waiting' || s.status === 'running');
      throw new Error(
        waiting ? `The step "${waiting.title}" is not finished` : 'The flow is over: start again',
      );
    }
    return this.run(step, () => this.runStep(step));
  }

  /** Delivers the authorization response (the inspector's callback) to the waiting step. */
  async callback(callback: AuthorizationCallback): Promise<FlowStep> {
    const p = this.pending;
    if (!p) throw new Error('No authorization is waiting for a response');
    this.pending = undefined;
    p.step.status = 'running';
    return this.run(p.step, () => this.finishAuthorization(p.step, p.auth, p.scope, callback));
  }

  /** Follows the waiting authorization URL here, for servers that approve at once (test servers). */
  async follow(): Promise<FlowStep> {
    const p = this.pending;
    if (!p) throw new Error('No authorization is waiting for a response');
    const step = p.step;
    this.current = step;
    let callback: AuthorizationCallback;
    try {
      callback = await headlessInteraction({ redirectUri: this.options.redirectUri }).openAuthorizationUrl(
        p.auth.url,
        { redirectUri: this.options.redirectUri, fetch: this.fetcher },
      );
    } catch (e) {
      this.pending = undefined;
      step.status = 'failed';
      step.failure = explain(e);
      return step;
    }
    return this.callback(callback);
  }

  /** Whether `state` is the waiting authorization request's (the callback route's check). */
  waitsFor(state: string | null): boolean {
    return state !== null && this.pending !== undefined && this.pending.auth.state === state;
  }

  async close(): Promise<void> {
    const mcp = this.mcp;
    this.mcp = undefined;
    await mcp?.close().catch(() => undefined);
  }

  private async run(step: FlowStep, work: () => Promise<void>): Promise<FlowStep> {
    const started = performance.now();
    this.current = step;
    step.status = 'running';
    try {
      await work();
      if (step.status === 'running') step.status = 'passed';
    } catch (e) {
      step.status = 'failed';
      step.failure = explain(e);
    } finally {
      step.ms = (step.ms ?? 0) + Math.round(performance.now() - started);
    }
    return step;
  }

  private check(step: FlowStep, name: string, ok: boolean, detail: string, info = false): boolean {
    step.checks.push(info ? { name, ok, detail, info } : { name, ok, detail });
    return ok;
  }

  private runStep(step: FlowStep): Promise<void> {
    switch (step.id) {
      case 'challenge':
        return this.runChallenge(step);
      case 'resource-metadata':
        return this.runResourceMetadata(step);
      case 'as-metadata':
        return this.runAsMetadata(step);
      case 'client':
        return this.runClient(step);
      case 'authorize':
        return this.startAuthorization(step, undefined);
      case 'token':
        return this.runToken(step);
      case 'call':
        return this.runCall(step);
      case 'refresh':
        return this.runRefresh(step);
      case 'step-up':
        return this.runStepUp(step);
    }
  }

  /** The MCP client waits longer than each HTTP request, so the exchange shows the timeout. */
  private get clientTimeoutMs(): number {
    return this.timeoutMs + 2000;
  }

  private connectMcp(): Promise<Client> {
    const sink = (ex: HttpExchange): void => void this.current?.exchanges.push(ex);
    const fetch = recordingMcpFetch(sink, () => this.tokens?.access_token, this.timeoutMs);
    return connectRecorded(this.serverUrl, this.era, fetch, this.clientTimeoutMs);
  }

  private async runChallenge(step: FlowStep): Promise<void> {
    // The first request of the era, without a token: a protected server answers 401.
    let connected: Client | undefined;
    let error: unknown;
    try {
      connected = await this.connectMcp();
    } catch (e) {
      error = e;
    }
    await connected?.close().catch(() => undefined);
    const refused = step.exchanges.find((x) => x.status === 401);
    if (
      !this.check(
        step,
        'The server answers 401 without a token',
        refused !== undefined,
        refused
          ? `${refused.method} ${refused.url} → 401`
          : connected
            ? 'the server let the client in without a token'
            : `no 401: ${explain(error).message}`,
      )
    )
      throw connected
        ? new AuthError('DiscoveryFailed', 'The server is not protected: it answered without a token')
        : error;
    const header = refused!.responseHeaders?.['www-authenticate'];
    this.check(
      step,
      'WWW-Authenticate is present',
      header !== undefined,
      header ?? 'absent: discovery falls back to the well-known URLs',
      true,
    );
    if (header === undefined) return;
    const challenges = parseWwwAuthenticate(header);
    const bearer = bearerChallengeOf(new Headers({ 'www-authenticate': header }));
    step.facts.challenges = challenges;
    this.check(
      step,
      'It has a Bearer challenge',
      bearer !== undefined,
      challenges.map((c) => c.scheme).join(', ') || 'none',
    );
    this.check(
      step,
      'The challenge names the resource metadata (RFC 9728 §5.1)',
      bearer?.resourceMetadata !== undefined,
      bearer?.resourceMetadata ?? 'no resource_metadata: the well-known URLs are tried',
      true,
    );
    if (bearer?.scope !== undefined) step.facts.scope = bearer.scope;
    this.challenge = bearer;
  }

  private async runResourceMetadata(step: FlowStep): Promise<void> {
    const prm = await discoverResourceMetadata(this.fetcher, this.serverUrl, this.challenge);
    if (!prm) {
      this.check(
        step,
        'Protected resource metadata is published',
        false,
        "none found: the 2025-03-26 fallback (authorization server at the server's origin) is used next",
        true,
      );
      return;
    }
    this.prm = prm;
    step.facts.metadata = prm;
    this.check(
      step,
      'Its "resource" is this server (RFC 9728 §3.3)',
      true,
      `${prm.resource} matches ${canonicalResourceUri(this.serverUrl)}`,
    );
    const list = prm.authorization_servers;
    this.check(
      step,
      'It lists an authorization server',
      Array.isArray(list) && list.length > 0,
      Array.isArray(list) ? list.join(', ') : 'authorization_servers is missing',
    );
  }

  private async runAsMetadata(step: FlowStep): Promise<void> {
    let d: Discovery;
    try {
      d = await discoverAuthorizationServer(this.fetcher, this.serverUrl, this.prm);
    } catch (e) {
      if (findAuthError(e)?.code === 'IssuerMismatch') {
        const said = issuerIn(step.exchanges.at(-1)?.responseBody);
        const asked = this.prm?.authorization_servers?.[0] ?? this.serverUrl.origin;
        const detail = `looked up ${asked}; the metadata says ${said}`;
        this.check(step, 'The issuer is the one looked up (RFC 8414 §3.3)', false, detail);
        throw new AuthError('IssuerMismatch', `${(e as Error).message} (${detail})`, { cause: e });
      }
      throw e;
    }
    this.discovery = d;
    step.facts.metadata = d.as;
    step.facts.resource = d.resource;
    if (d.legacy !== 'none') step.facts.fallback = d.legacy;
    const expected = this.prm?.authorization_servers?.[0];
    this.check(
      step,
      'The issuer is the one looked up (RFC 8414 §3.3)',
      true,
      expected !== undefined
        ? `${d.as.issuer} = ${expected}`
        : `${d.as.issuer} (2025-03-26 fallback: ${d.legacy})`,
    );
    const pkce = this.check(
      step,
      'PKCE with S256 is supported',
      hasS256(d.as),
      `code_challenge_methods_supported: ${JSON.stringify(d.as.code_challenge_methods_supported ?? 'absent')}`,
    );
    this.check(
      step,
      'Client ID Metadata Documents are supported',
      d.as.client_id_metadata_document_supported === true,
      d.as.client_id_metadata_document_supported === true ? 'yes' : 'no: registration is next',
      true,
    );
    this.check(
      step,
      'A registration endpoint is offered',
      typeof d.as.registration_endpoint === 'string',
      typeof d.as.registration_endpoint === 'string' ? d.as.registration_endpoint : 'none',
      true,
    );
    if (!pkce) requireS256(d.as);
  }

  private async runClient(step: FlowStep): Promise<void> {
    const d = this.discovery!;
    const ctx = {
      fetcher: this.fetcher,
      store: this.store,
      preRegistered: [],
      bindings: new Map(),
      clientMetadata: { client_name: 'mcpkit inspect (OAuth debugger)' },
      dynamicRegistration: true,
      redirectUri: this.options.redirectUri,
      ...(this.options.clientMetadataUrl ? { clientMetadataUrl: this.options.clientMetadataUrl } : {}),
    };
    const client = await resolveClient(ctx, d.as);
    this.client = client;
    step.facts.clientId = client.clientId;
    step.facts.source = client.source;
    step.facts.authMethod = client.method;
    const how =
      client.source === 'metadata-document'
        ? 'a Client ID Metadata Document (its URL is the client ID)'
        : client.source === 'dynamic-registration'
          ? 'Dynamic Client Registration (deprecated in MCP 2026-07-28)'
          : 'pre-registered credentials';
    this.check(step, 'The client has an identity', true, `${client.clientId} from ${how}`);
    if (client.source === 'dynamic-registration') {
      const stored = (await this.store.get(d.as.issuer))?.client;
      this.check(
        step,
        'The registration has our redirect URI',
        stored?.redirect_uris?.includes(this.options.redirectUri) === true,
        (stored?.redirect_uris ?? []).join(', ') || 'none',
      );
    }
  }

  private context(): GrantContext {
    return {
      fetcher: this.fetcher,
      as: this.discovery!.as,
      client: this.client!,
      resource: this.discovery!.resource,
    };
  }

  /** Builds the authorization URL and waits for its response (the page opens it, or "follow"). */
  private async startAuthorization(step: FlowStep, challenge: BearerChallenge | undefined): Promise<void> {
    const d = this.discovery!;
    const scope = selectScope(this.requested, challenge ?? this.challenge, d, {
      scope: this.options.scope,
      offlineAccess: true,
    });
    const auth = await buildAuthorizationUrl(this.context(), this.options.redirectUri, scope);
    const q = auth.url.searchParams;
    step.facts.scope = scope ?? '(none)';
    step.facts.resource = q.get('resource');
    this.check(
      step,
      'PKCE: code_challenge_method is S256',
      q.get('code_challenge_method') === 'S256',
      `code_challenge ${q.get('code_challenge')}`,
    );
    this.check(
      step,
      'The resource (RFC 8707) is this server',
      q.get('resource') === d.resource,
      q.get('resource') ?? '',
    );
    step.authorizationUrl = auth.url.href;
    this.pending = { step, auth, scope };
    step.status = 'waiting';
  }

  private async finishAuthorization(
    step: FlowStep,
    auth: PendingAuthorization,
    scope: string | undefined,
    callback: AuthorizationCallback,
  ): Promise<void> {
    step.facts.response = { ...callback, ...(callback.code ? { code: mask(callback.code) } : {}) };
    const params = validateCallback(this.discovery!.as, this.client!, auth, callback);
    this.check(
      step,
      'The state matches the request',
      true,
      'the response belongs to this authorization request',
    );
    this.check(
      step,
      'The issuer (RFC 9207 iss) matches',
      true,
      callback.iss ?? 'not sent (the server does not advertise it)',
    );
    this.check(step, 'An authorization code came back', params.get('code') !== null, 'code received');
    if (step.id === 'authorize') {
      this.code = { auth, params, scope };
      return;
    }
    // Step-up: exchange at once and retry the call that was refused.
    await this.exchange(step, auth, params, scope);
    await this.retryStepUp(step);
  }

  private async exchange(
    step: FlowStep,
    auth: PendingAuthorization,
    params: URLSearchParams,
    scope: string | undefined,
  ): Promise<void> {
    const tokens = await exchangeAuthorizationCode(this.context(), auth, params, scope);
    this.tokens = tokens;
    step.facts.tokens = shownTokens(tokens);
    this.check(step, 'An access token was issued', tokens.access_token !== '', tokens.token_type ?? 'Bearer');
    this.check(
      step,
      'The granted scope covers the request',
      scope === undefined ||
        [...scope.split(' ')].every(
          (s) => s === 'offline_access' || (tokens.scope ?? '').split(' ').includes(s),
        ),
      `asked ${scope ?? '(none)'}, granted ${tokens.scope ?? '(not said)'}`,
    );
  }

  private async runToken(step: FlowStep): Promise<void> {
    const code = this.code!;
    this.code = undefined;
    await this.exchange(step, code.auth, code.params, code.scope);
    this.check(
      step,
      'A refresh token was issued',
      this.tokens!.refresh_token !== undefined,
      this.tokens!.refresh_token ? 'yes' : 'no: the refresh step will be skipped',
      true,
    );
  }

  private async runCall(step: FlowStep): Promise<void> {
    await this.mcp?.close().catch(() => undefined);
    this.mcp = await this.connectMcp();
    const result = await this.mcp.listTools(undefined, { timeoutMs: this.clientTimeoutMs });
    this.tools = result.tools.map((t) => t.name);
    step.facts.tools = this.tools;
    const sent = step.exchanges.filter((x) => x.requestHeaders.authorization?.startsWith('Bearer '));
    this.check(
      step,
      'Requests carry the token in the Authorization header',
      sent.length > 0,
      `${sent.length} of ${step.exchanges.length} requests`,
    );
    this.check(
      step,
      'The server accepted the token',
      step.exchanges.every((x) => x.status === undefined || x.status < 400),
      `tools/list returned ${this.tools.length} tools`,
    );
  }

  private async runRefresh(step: FlowStep): Promise<void> {
    const before = this.tokens!;
    if (before.refresh_token === undefined) {
      step.status = 'skipped';
      this.check(step, 'A refresh token is held', false, 'the token response had none', true);
      return;
    }
    const fresh = await refreshGrant(this.context(), before);
    this.tokens = fresh;
    step.facts.tokens = shownTokens(fresh);
    this.check(
      step,
      'A new access token was issued',
      fresh.access_token !== before.access_token,
      'the access token changed',
    );
    this.check(
      step,
      'The refresh token was rotated or kept',
      fresh.refresh_token !== undefined,
      fresh.refresh_token === before.refresh_token ? 'kept' : 'rotated (the old one is spent)',
    );
    // tools/list, not ping: ping does not exist in the modern era.
    await this.mcp?.listTools(undefined, { timeoutMs: this.clientTimeoutMs });
    this.check(step, 'The new token works (tools/list)', true, 'the server answered');
  }

  private stepUpTool(): string | undefined {
    return this.options.stepUpTool ?? this.tools.at(-1);
  }

  private async runStepUp(step: FlowStep): Promise<void> {
    const tool = this.stepUpTool();
    if (tool === undefined || !this.mcp) {
      step.status = 'skipped';
      this.check(step, 'A tool to call', false, 'the server lists no tool', true);
      return;
    }
    step.facts.tool = tool;
    try {
      await this.mcp.callTool({ name: tool, arguments: {} }, { timeoutMs: this.clientTimeoutMs });
      this.check(
        step,
        'The server asked for more scope',
        false,
        `${tool} worked with the scope held: no step-up needed`,
        true,
      );
      step.status = 'skipped';
      return;
    } catch (e) {
      const refused = step.exchanges.find((x) => x.status === 403);
      const header = refused?.responseHeaders?.['www-authenticate'];
      const challenge = header ? bearerChallengeOf(new Headers({ 'www-authenticate': header })) : undefined;
      if (challenge?.error !== 'insufficient_scope') throw e;
      step.facts.challenge = challenge;
      this.check(
        step,
        'The server answers 403 insufficient_scope',
        true,
        `needs ${challenge.scope ?? '(scope not named)'}`,
      );
      await this.startAuthorization(step, challenge);
    }
  }

  private async retryStepUp(step: FlowStep): Promise<void> {
    const tool = step.facts.tool as string;
    const result = await this.mcp!.callTool(
      { name: tool, arguments: {} },
      { timeoutMs: this.clientTimeoutMs },
    );
    this.check(
      step,
      `${tool} works with the new token`,
      result.isError !== true,
      result.isError ? 'the tool returned an error' : 'the call succeeded',
    );
  }
}
