/**
 * The MCP Registry's publish API, as its OpenAPI document (docs/reference/api/openapi.yaml)
 * and the official registry's API notes describe it:
 *
 * - a credential is exchanged for a short-lived registry token: `POST /v0.1/auth/github-at`
 *   `{ github_token }`, `/v0.1/auth/github-oidc` `{ oidc_token }`, `/v0.1/auth/dns` and
 *   `/v0.1/auth/http` `{ domain, timestamp, signed_timestamp }` (an Ed25519 signature of
 *   the timestamp, hex), or `/v0.1/auth/none` (local registries only); each answers
 *   `{ registry_token, expires_at }`;
 * - `POST /v0.1/publish` with `Authorization: Bearer <registry token>` and the server.json
 *   as the JSON body answers 200 with `{ server, _meta }`, or an error (`{ error }`, or a
 *   problem document with `title`/`detail`/`errors`).
 *
 * Requests are built as plain data first, so `--dry-run` can print exactly what would be
 * sent, with credentials redacted.
 */
import { createPrivateKey, sign } from 'node:crypto';

/** The default registry. */
export const OFFICIAL_REGISTRY = 'https://registry.modelcontextprotocol.io';

export interface PlannedRequest {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** How to sign in to the registry. */
export type RegistryCredential =
  | { kind: 'token'; token: string }
  | { kind: 'github'; githubToken: string }
  | { kind: 'github-oidc'; oidcToken: string }
  | { kind: 'dns' | 'http'; domain: string; privateKeyHex: string }
  | { kind: 'none' };

const JSON_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, application/problem+json',
};

/** Ed25519 private key from its 32-byte seed in hex (what `openssl pkey -text` prints). */
function ed25519Key(hex: string) {
  if (!/^[0-9a-fA-F]{64}$/.test(hex))
    throw new Error(
      'the private key must be an Ed25519 seed: 64 hex characters (ECDSA P-384 keys are not supported)',
    );
  const pkcs8 = Buffer.concat([
    Buffer.from('302e020100300506032b657004220420', 'hex'),
    Buffer.from(hex, 'hex'),
  ]);
  return createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
}

/** The token-exchange request for a credential, or undefined when it is already a registry token. */
export function authRequest(
  registry: string,
  cred: RegistryCredential,
  now: Date = new Date(),
): PlannedRequest | undefined {
  const at = (path: string, body: Record<string, unknown>): PlannedRequest => ({
    method: 'POST',
    url: new URL(`/v0.1/auth/${path}`, registry).href,
    headers: { ...JSON_HEADERS },
    body: JSON.stringify(body),
  });
  switch (cred.kind) {
    case 'token':
      return undefined;
    case 'github':
      return at('github-at', { github_token: cred.githubToken });
    case 'github-oidc':
      return at('github-oidc', { oidc_token: cred.oidcToken });
    case 'none':
      return at('none', {});
    case 'dns':
    case 'http': {
      const timestamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
      const signature = sign(null, Buffer.from(timestamp), ed25519Key(cred.privateKeyHex)).toString('hex');
      return at(cred.kind, { domain: cred.domain, timestamp, signed_timestamp: signature });
    }
  }
}

/** The publish request for a server.json. */
export function publishRequest(registry: string, registryToken: string, serverJson: unknown): PlannedRequest {
  return {
    method: 'POST',
    url: new URL('/v0.1/publish', registry).href,
    headers: { ...JSON_HEADERS, authorization: `Bearer ${registryToken}` },
    body: JSON.stringify(serverJson),
  };
}

/** Body fields that carry a credential, hidden when a request is shown. */
const SECRET_FIELDS = ['github_token', 'oidc_token', 'signed_timestamp'];

/** A request as text (`POST url`, headers, body), credentials replaced by `<redacted>`. */
export function describeRequest(r: PlannedRequest): string {
  const headers = Object.entries(r.headers).map(([k, v]) =>
    k === 'authorization' ? `${k}: Bearer <redacted>` : `${k}: ${v}`,
  );
  let body = r.body;
  try {
    const parsed = JSON.parse(r.body) as Record<string, unknown>;
    let hidden = false;
    for (const f of SECRET_FIELDS)
      if (typeof parsed[f] === 'string') {
        parsed[f] = '<redacted>';
        hidden = true;
      }
    body = hidden ? JSON.stringify(parsed) : r.body;
  } catch {
    // Not JSON: shown as it is.
  }
  return `${r.method} ${r.url}\n${headers.join('\n')}\n\n${body}`;
}

/** The registry's words for a failed request: `{ error }` or a problem document. */
async function failure(res: Response, what: string): Promise<Error> {
  const text = await res.text();
  let detail = text.slice(0, 500);
  try {
    const p = JSON.parse(text) as { error?: unknown; title?: unknown; detail?: unknown; errors?: unknown };
    const errors = Array.isArray(p.errors)
      ? p.errors.map((e: { location?: string; message?: string }) =>
          `${e.location ?? ''} ${e.message ?? ''}`.trim(),
        )
      : [];
    detail = [p.error ?? p.detail ?? p.title, ...errors]
      .filter((x) => x !== undefined && x !== '')
      .join('; ');
  } catch {
    // Not JSON: the text is the detail.
  }
  return new Error(`${what}: HTTP ${res.status}${detail ? `: ${detail}` : ''}`);
}

async function send(r: PlannedRequest, signal: AbortSignal): Promise<Response> {
  return fetch(r.url, { method: r.method, headers: r.headers, body: r.body, signal, redirect: 'error' });
}

/** Exchanges the credential (when needed) and publishes; returns the registry's answer. */
export async function publish(
  registry: string,
  cred: RegistryCredential,
  serverJson: unknown,
  signal: AbortSignal,
): Promise<{ server?: { name?: string; version?: string }; _meta?: unknown }> {
  let token: string;
  const auth = authRequest(registry, cred);
  if (auth === undefined) token = (cred as { token: string }).token;
  else {
    const res = await send(auth, signal);
    if (!res.ok) throw await failure(res, `Sign-in at ${auth.url} failed`);
    const body = (await res.json()) as { registry_token?: unknown };
    if (typeof body.registry_token !== 'string')
      throw new Error(`Sign-in at ${auth.url} answered without a registry_token`);
    token = body.registry_token;
  }
  const req = publishRequest(registry, token, serverJson);
  const res = await send(req, signal);
  if (!res.ok) throw await failure(res, 'Publishing failed');
  return (await res.json()) as { server?: { name?: string; version?: string } };
}
