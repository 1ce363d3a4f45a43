/**
 * The OAuth debugger's shapes: the steps, what each records, the options of a flow and the
 * snapshot the page draws; and the small readings of documents the steps share.
 */
import type { AuthorizationServer } from 'oauth4webapi';
import type { StoredTokens } from '../auth/client/store.js';
import type { Explained } from './oauth-explain.js';
import { mask } from './oauth-exchanges.js';
import type { HttpExchange } from './oauth-exchanges.js';

/** The steps, in order. */
export const STEP_IDS = [
  'challenge',
  'resource-metadata',
  'as-metadata',
  'client',
  'authorize',
  'token',
  'call',
  'refresh',
  'step-up',
] as const;
export type StepId = (typeof STEP_IDS)[number];

export const STEP_TITLES: Record<StepId, string> = {
  challenge: '401 challenge',
  'resource-metadata': 'Protected resource metadata',
  'as-metadata': 'Authorization server metadata',
  client: 'Client identity (metadata document or registration)',
  authorize: 'Authorization with PKCE',
  token: 'Token exchange',
  call: 'Authenticated call (tools/list)',
  refresh: 'Refresh',
  'step-up': 'Step-up on insufficient_scope',
};

/** `waiting`: the step needs the authorization response (the user's browser, or "follow"). */
export type StepStatus = 'pending' | 'running' | 'waiting' | 'passed' | 'failed' | 'skipped';

/** One thing a step checked. */
export interface StepCheck {
  name: string;
  ok: boolean;
  detail: string;
  /** Worth knowing, not a failure when false (no Client ID Metadata Document support...). */
  info?: true;
}

/** One step as the page shows it. */
export interface FlowStep {
  id: StepId;
  title: string;
  status: StepStatus;
  exchanges: HttpExchange[];
  checks: StepCheck[];
  /** What the step learned (parsed challenge, metadata, scopes...), secrets masked. */
  facts: Record<string, unknown>;
  /** The URL to open while `waiting`. */
  authorizationUrl?: string;
  failure?: Explained;
  ms?: number;
}

/** Options of {@link OAuthFlow}. */
export interface OAuthFlowOptions {
  /** The protected MCP endpoint. */
  serverUrl: string;
  /** Where the authorization server sends the user back (the inspector's callback). */
  redirectUri: string;
  /** The protocol era of the MCP requests (default `legacy`). */
  era?: 'legacy' | 'modern';
  /**
   * The SSRF guard: `strict` refuses loopback and private addresses in every OAuth URL;
   * `loopback` (the default, as `OAuthClient` does for a server on loopback) allows loopback.
   */
  guard?: 'strict' | 'loopback';
  /** Time for each request, in ms (default 10 s). */
  timeoutMs?: number;
  /** Largest metadata or token response read, in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** A Client ID Metadata Document URL (https with a path), used when the server supports them. */
  clientMetadataUrl?: string;
  /** Request exactly these scopes instead of the spec's selection. */
  scope?: string;
  /** The tool the step-up step calls (default: the last tool listed). */
  stepUpTool?: string;
}

/** The whole flow as the page shows it. */
export interface FlowSnapshot {
  id: string;
  serverUrl: string;
  era: 'legacy' | 'modern';
  guard: 'strict' | 'loopback';
  timeoutMs: number;
  redirectUri: string;
  steps: FlowStep[];
  /** The next step `next()` runs, or undefined when done or stopped. */
  next?: StepId;
  /** The state of the authorization request awaiting its callback. */
  waitingState?: string;
}

/** The issuer a metadata document names, for a message. */
export function issuerIn(body: string | undefined): string {
  try {
    const doc: unknown = JSON.parse(body ?? '');
    const issuer = (doc as { issuer?: unknown }).issuer;
    return typeof issuer === 'string' ? issuer : JSON.stringify(issuer ?? 'nothing');
  } catch {
    return '(unreadable)';
  }
}

/** Whether the metadata lists PKCE S256. */
export function hasS256(as: AuthorizationServer): boolean {
  const m = as.code_challenge_methods_supported;
  return Array.isArray(m) && m.includes('S256');
}

/** Tokens as the page shows them: masked. */
export function shownTokens(t: StoredTokens): Record<string, unknown> {
  return {
    access_token: mask(t.access_token),
    token_type: t.token_type ?? 'Bearer',
    ...(t.refresh_token ? { refresh_token: mask(t.refresh_token) } : {}),
    ...(t.expires_at ? { expires_in: t.expires_at - Math.floor(Date.now() / 1000) } : {}),
    ...(t.scope ? { scope: t.scope } : {}),
  };
}

/** A short random id for a flow (not a secret: the callback is bound by its state). */
export const newId = (): string => Math.random().toString(36).slice(2, 10);
