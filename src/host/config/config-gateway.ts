/** The `mcpkit.gateway` section of a config: who may call the gateway, and what each caller may reach. */
import type { Principal } from '../../protocol/principal.js';
import type { FieldReader } from './config-reader.js';
import type {
  GatewayAuthConfig,
  GatewayConfig,
  GatewayJwtConfig,
  GatewayVisibilityRule,
  PrincipalRule,
} from './config-types.js';

/** The name of the token given on the command line (`mcpkit proxy --auth-token-env` or `--auth-token-file`). */
export const CLI_TOKEN_NAME = 'cli';

/** Shorter tokens are guessable; `openssl rand -hex 32` gives 64 characters. */
export const MIN_TOKEN_LENGTH = 16;

/** RFC 6750's b64token: what fits in `Authorization: Bearer`. */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * Why a static gateway token is unusable, or undefined when it is fine. Never includes the token.
 *
 * @example
 * ```ts
 * tokenProblem('hunter2'); // 'a token of at least 16 characters (try: openssl rand -hex 32)'
 * ```
 */
export function tokenProblem(token: string): string | undefined {
  if (token.length < MIN_TOKEN_LENGTH)
    return `a token of at least ${MIN_TOKEN_LENGTH} characters (try: openssl rand -hex 32)`;
  if (!TOKEN68.test(token)) return 'a token of letters, digits and - . _ ~ + / (with = only at the end)';
  return undefined;
}

/**
 * Reads `{ auth: { tokens, jwt }, principals: [...] }`. Tokens are named (the name is the
 * caller's principal); `jwt` names the issuer, audience and JWKS of JWT access tokens; each
 * principal rule names one caller (`token`, or `issuer` with `subject` or `client`) and
 * what it may reach (`allow`).
 *
 * @example
 * ```json
 * "gateway": {
 *   "auth": { "tokens": { "ci-bot": "${CI_GATEWAY_TOKEN}" } },
 *   "principals": [{ "token": "ci-bot", "allow": { "search": "*", "files": ["read_file"] } }]
 * }
 * ```
 */
export function parseGateway(
  r: FieldReader | undefined,
  servers: readonly string[],
): GatewayConfig | undefined {
  if (!r) return undefined;
  r.unknownKeys(['auth', 'principals', 'visibility']);
  const auth = parseAuth(r.object('auth'));
  const principals = r.objects('principals')?.map((p) => parsePrincipal(p, auth, servers));
  const visibility = r.objects('visibility')?.map((v) => parseVisibility(v, servers));
  return {
    auth,
    principals: principals?.filter((p): p is PrincipalRule => p !== undefined),
    ...(visibility
      ? { visibility: visibility.filter((v): v is GatewayVisibilityRule => v !== undefined) }
      : {}),
  };
}

/** `{ server, tools?, scopes?, claims? }`: who sees a server's items (all of them, or the tools named). */
function parseVisibility(v: FieldReader, servers: readonly string[]): GatewayVisibilityRule | undefined {
  v.unknownKeys(['server', 'tools', 'scopes', 'claims']);
  const server = v.string('server', { required: true, allowEmpty: false });
  if (server !== undefined && !servers.includes(server))
    return v.issue(v.path('server'), `a server of this config (${servers.join(', ') || 'none'})`, server);
  const tools = v.has('tools') ? v.stringArray('tools') : undefined;
  const scopes = v.has('scopes') ? v.stringArray('scopes') : [];
  const claims: Record<string, string | string[]> = {};
  const c = v.object('claims');
  for (const key of Object.keys(c?.obj ?? {})) {
    const value =
      typeof c!.obj[key] === 'string' ? c!.string(key, { allowEmpty: false }) : c!.stringArray(key);
    if (value !== undefined) claims[key] = value;
  }
  if (scopes !== undefined && scopes.length === 0 && Object.keys(claims).length === 0)
    return v.issue(v.path('scopes'), 'the scopes or claims a caller needs to see these items', undefined);
  if (server === undefined || scopes === undefined || (v.has('tools') && tools === undefined))
    return undefined;
  return { server, tools, scopes, claims };
}

function parseAuth(r: FieldReader | undefined): GatewayAuthConfig | undefined {
  if (!r) return undefined;
  r.unknownKeys(['tokens', 'jwt']);
  const tokens: Record<string, string> = {};
  const t = r.object('tokens');
  const byValue = new Map<string, string>();
  for (const name of Object.keys(t?.obj ?? {})) {
    const value = t!.string(name, { allowEmpty: false });
    if (value === undefined) continue;
    // The value is a secret: messages say what is wrong with it, never what it is.
    const problem = tokenProblem(value);
    if (name === CLI_TOKEN_NAME)
      t!.issue(t!.path(name), `another name ("${CLI_TOKEN_NAME}" is the command line's token)`, name, true);
    else if (problem) t!.issue(t!.path(name), problem, `${value.length} characters`, true);
    else if (byValue.has(value))
      t!.issue(t!.path(name), `a token of its own (it is the same as "${byValue.get(value)}")`, '', true);
    else {
      byValue.set(value, name);
      tokens[name] = value;
    }
  }
  const jwt = parseJwt(r.object('jwt'));
  if (!r.has('jwt') && Object.keys(t?.obj ?? {}).length === 0)
    r.issue(r.path('tokens'), 'named tokens, or "jwt", or both', undefined);
  return { tokens, jwt };
}

/** A string or a list of strings, as a non-empty list. */
function stringList(r: FieldReader, key: string, required: boolean): string[] | undefined {
  if (!r.has(key))
    return required ? r.issue(r.path(key), 'a string or a list of strings', undefined) : undefined;
  const list = typeof r.obj[key] === 'string' ? [r.string(key, { allowEmpty: false })] : r.stringArray(key);
  if (!list || list.some((s) => s === undefined || s === '')) return undefined;
  if (list.length === 0) return r.issue(r.path(key), 'at least one value', r.obj[key]);
  return list as string[];
}

function httpUrl(r: FieldReader, key: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol))
    return r.issue(r.path(key), 'an absolute https:// URL', value);
  return value;
}

function parseJwt(r: FieldReader | undefined): GatewayJwtConfig | undefined {
  if (!r) return undefined;
  r.unknownKeys(['issuer', 'audience', 'jwksUrl', 'resource', 'authorizationServers', 'scopes']);
  const issuer = stringList(r, 'issuer', true);
  const audience = stringList(r, 'audience', true);
  const jwksUrl = httpUrl(r, 'jwksUrl', r.string('jwksUrl', { required: true, allowEmpty: false }));
  const resource = httpUrl(r, 'resource', r.string('resource', { allowEmpty: false })) ?? audience?.[0];
  if (resource !== undefined && !URL.canParse(resource))
    r.issue(
      r.path('resource'),
      'the gateway\'s public MCP URL (set "resource", or make the first audience one)',
      resource,
    );
  const authorizationServers = stringList(r, 'authorizationServers', false) ?? issuer;
  const scopes = r.stringArray('scopes') ?? [];
  if (!issuer || !audience || !jwksUrl || !resource || !authorizationServers) return undefined;
  return { issuer, audience, jwksUrl, resource, authorizationServers, scopes };
}

function parsePrincipal(
  p: FieldReader,
  auth: GatewayAuthConfig | undefined,
  servers: readonly string[],
): PrincipalRule | undefined {
  p.unknownKeys(['token', 'issuer', 'subject', 'client', 'allow']);
  const named = ['token', 'subject', 'client'].filter((k) => p.has(k));
  if (named.length !== 1) {
    return p.issue(
      p.path(named[1] ?? 'token'),
      'exactly one of "token" (a gateway token\'s name), "subject" (a user) or "client" (an OAuth client)',
      named.length === 0 ? undefined : named.join(' and '),
      true,
    );
  }
  let principal: Principal | undefined;
  if (p.has('token')) {
    const name = p.string('token', { allowEmpty: false });
    if (p.has('issuer'))
      p.issue(p.path('issuer'), 'no issuer with "token" (a gateway token has none)', p.obj.issuer);
    const known = [...Object.keys(auth?.tokens ?? {}), CLI_TOKEN_NAME];
    if (name !== undefined && !known.includes(name))
      p.issue(p.path('token'), `the name of a token in auth.tokens, or "${CLI_TOKEN_NAME}"`, name);
    else if (name !== undefined) principal = { issuer: '', subject: name, kind: 'client' };
  } else {
    const issuer = p.string('issuer', { required: true, allowEmpty: false });
    const issuers = auth?.jwt?.issuer;
    if (issuer !== undefined && issuers && !issuers.includes(issuer))
      p.issue(p.path('issuer'), `one of the accepted issuers (${issuers.join(', ')})`, issuer);
    const kind = p.has('subject') ? 'user' : 'client';
    const subject = p.string(kind === 'user' ? 'subject' : 'client', { allowEmpty: false });
    if (issuer !== undefined && subject !== undefined) principal = { issuer, subject, kind };
  }
  const allow = parseAllow(p, servers);
  return principal && allow ? { principal, allow } : undefined;
}

function parseAllow(p: FieldReader, servers: readonly string[]): PrincipalRule['allow'] | undefined {
  if (!p.has('allow'))
    return p.issue(
      p.path('allow'),
      '"*" or an object of servers, each "*" or a list of tool names',
      undefined,
    );
  if (p.obj.allow === '*') return '*';
  const a = p.object('allow');
  if (!a) return undefined;
  const out: Record<string, '*' | string[]> = {};
  for (const server of Object.keys(a.obj)) {
    if (!servers.includes(server)) {
      a.issue(a.path(server), `a server of this config (${servers.join(', ') || 'none'})`, server, true);
      continue;
    }
    if (a.obj[server] === '*') out[server] = '*';
    else {
      const tools = a.stringArray(server);
      if (tools) out[server] = tools;
    }
  }
  return out;
}
