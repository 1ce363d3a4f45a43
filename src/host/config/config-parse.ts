/**
 * Reads the MCP server configs applications already use, validates every field and
 * expands `${...}` variables. Accepted shapes:
 *
 * - Claude Desktop, Cursor, Windsurf, Cline: `{ "mcpServers": { name: entry } }`;
 * - VS Code: `{ "servers": { name: entry }, "inputs": [...] }` (also nested in `"mcp"`).
 *
 * An entry with `command` is a local stdio server (`args`, `env`, `cwd`); one with `url`
 * (or `serverUrl`) is a remote one (`headers`, `type`: `http`/`streamable-http` or `sse`).
 * mcpkit's own per-server fields sit beside them: `era`, `timeouts`, `timeoutMs`,
 * `restart`, `roots`, `policy`, `rateLimit`, `disabled`, `autoApprove`, `stderr`.
 * Host-wide settings live under `"mcpkit"`: `roots`, `defaultPolicy`, `llm`, `gateway`.
 */
import { describeJsonError } from '../../jsonrpc/json-position.js';
import { ConfigError } from '../errors.js';
import type { ConfigIssue } from '../errors.js';
import type {
  Decision,
  HostConfig,
  HttpServerConfig,
  RateLimit,
  RestartPolicy,
  ServerConfig,
  ServerPolicy,
  StdioServerConfig,
  Timeouts,
} from './config-types.js';
import { FieldReader, closest, describeValue } from './config-reader.js';
import type { ExpandSources } from './config-reader.js';
import { parseGateway } from './config-gateway.js';
import { parseLlm } from './config-llm.js';
import { isWithin, parseRoot } from './roots.js';

/** Options of {@link parseHostConfig}. */
export interface ParseConfigOptions {
  /** Named in every message (the loader passes the path). */
  file?: string;
  /** Where `${NAME}` is looked up. Default: no variables at all (pass `process.env` to use yours). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Values for VS Code's `${input:id}`. */
  inputs?: Readonly<Record<string, string>>;
  /** Named variables such as `workspaceFolder`. */
  variables?: Readonly<Record<string, string>>;
}

const DECISIONS = ['allow', 'deny', 'ask'] as const;
const COMMON = [
  'type',
  'disabled',
  'era',
  'timeouts',
  'timeoutMs',
  'timeout',
  'restart',
  'roots',
  'policy',
].concat(['rateLimit', 'autoApprove', 'alwaysAllow', 'description', 'name', 'icon']);
const STDIO_FIELDS = [...COMMON, 'command', 'args', 'env', 'cwd', 'stderr', 'envFile', 'transportType'];
const HTTP_FIELDS = [...COMMON, 'url', 'serverUrl', 'headers', 'legacySseFallback', 'transportType'];
const TOP_LEVEL = ['mcpServers', 'servers', 'inputs', 'mcp', 'mcpkit', '$schema'];

export const DEFAULT_TIMEOUTS: Timeouts = Object.freeze({ connectMs: 15_000, callMs: 60_000, probeMs: 3000 });
export const DEFAULT_RESTART: RestartPolicy = Object.freeze({
  maxRestarts: 5,
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  resetAfterMs: 60_000,
});

/**
 * Validates a parsed config object, or the JSON text of one, into a {@link HostConfig}.
 * Throws a {@link ConfigError} listing every problem: the file, the server, the field and
 * what was expected there. Unknown fields are not errors (other applications add their
 * own): they come back in `warnings`, with a "did you mean" hint when one is close.
 *
 * @example
 * ```ts
 * const config = parseHostConfig(
 *   { mcpServers: { files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '${HOME}'] } } },
 *   { env: process.env },
 * );
 * config.servers.files; // { transport: 'stdio', command: 'npx', args: [..., '/home/me'], ... }
 * ```
 */
export function parseHostConfig(input: unknown, options: ParseConfigOptions = {}): HostConfig {
  const issues: ConfigIssue[] = [];
  const warnings: string[] = [];
  const file = options.file;
  const sources: ExpandSources = {
    env: options.env ?? {},
    inputs: options.inputs ?? {},
    variables: options.variables ?? {},
  };
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (e) {
      throw new ConfigError([
        { file, server: undefined, field: '', expected: 'valid JSON', got: describeJsonError(input, e) },
      ]);
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError([
      { file, server: undefined, field: '', expected: 'a JSON object', got: describeValue(value) },
    ]);
  }
  const top = new FieldReader(
    value as Record<string, unknown>,
    issues,
    file,
    undefined,
    '',
    sources,
    warnings,
  );
  top.unknownKeys(TOP_LEVEL);
  const mcp = top.object('mcp');
  const holders = [
    top.has('mcpServers') ? top.object('mcpServers') : undefined,
    top.has('servers') ? top.object('servers') : undefined,
    mcp?.has('servers') ? mcp.object('servers') : undefined,
  ].filter((r): r is FieldReader => r !== undefined);
  if (holders.length === 0 && issues.length === 0) {
    top.issue('mcpServers', 'an object of servers (or VS Code\'s "servers")', undefined);
  }
  if (holders.length > 1) top.issue('servers', 'only one of "mcpServers" and "servers"', 'both', true);

  const host = top.object('mcpkit');
  host?.unknownKeys(['roots', 'defaultPolicy', 'llm', 'gateway']);
  const home = sources.env.HOME;
  const hostRoots = readRoots(host, 'roots', home) ?? [];
  const defaultDecision = host?.oneOf('defaultPolicy', DECISIONS) ?? 'ask';

  const servers: Record<string, ServerConfig> = {};
  for (const holder of holders.slice(0, 1)) {
    for (const [name, raw] of Object.entries(holder.obj)) {
      const parsed = parseServer(name, raw, issues, warnings, file, sources, hostRoots, home);
      if (parsed) servers[name] = parsed;
    }
  }
  const llm = parseLlm(host?.object('llm'));
  const gateway = parseGateway(host?.object('gateway'), Object.keys(servers));
  if (issues.length > 0) throw new ConfigError(issues);
  return { file, servers, roots: hostRoots, defaultDecision, llm, ...(gateway ? { gateway } : {}), warnings };
}

function readRoots(r: FieldReader | undefined, key: string, home: string | undefined): string[] | undefined {
  const list = r?.stringArray(key);
  if (!r || !list) return undefined;
  const out: string[] = [];
  list.forEach((raw, i) => {
    const parsed = parseRoot(raw, home);
    if ('error' in parsed)
      r.issue(`${r.path(key)}[${i}]`, `an absolute path or file:// URI (${raw} ${parsed.error})`);
    else out.push(parsed.path);
  });
  return out;
}

function parseServer(
  name: string,
  raw: unknown,
  issues: ConfigIssue[],
  warnings: string[],
  file: string | undefined,
  sources: ExpandSources,
  hostRoots: readonly string[],
  home: string | undefined,
): ServerConfig | undefined {
  const before = issues.length;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    issues.push({
      file,
      server: name,
      field: '',
      expected: 'an object describing the server',
      got: describeValue(raw),
    });
    return undefined;
  }
  const r = new FieldReader(raw as Record<string, unknown>, issues, file, name, '', sources, warnings);
  if (name.trim() === '') r.issue('', 'a non-empty server name', name);
  const type = r.string('type', { expand: false }) ?? r.string('transportType', { expand: false });
  const isUrl = r.has('url') || r.has('serverUrl');
  let transport: 'stdio' | 'http' | 'sse';
  if (type === undefined) transport = isUrl ? 'http' : 'stdio';
  else if (type === 'stdio') transport = 'stdio';
  else if (['http', 'streamable-http', 'streamableHttp', 'streamable_http'].includes(type))
    transport = 'http';
  else if (type === 'sse') transport = 'sse';
  else {
    r.issue('type', 'one of "stdio", "http", "streamable-http" or "sse"', type);
    return undefined;
  }
  if (transport === 'stdio' && !r.has('command')) {
    const typo = Object.keys(r.obj).find((k) => closest(k, ['command']) === 'command');
    const hint = r.has('url')
      ? ' (this entry has a url: set "type": "http" or drop "type")'
      : typo
        ? ` (found ${JSON.stringify(typo)}: did you mean "command"?)`
        : '';
    r.issue('command', `a command to run (stdio), or a "url" (HTTP)${hint}`, undefined);
  }

  const common = {
    name,
    disabled: r.boolean('disabled') ?? false,
    era: r.oneOf('era', ['auto', 'legacy', 'modern'] as const) ?? 'auto',
    timeouts: readTimeouts(r),
    restart: readRestart(r),
    roots: readServerRoots(r, hostRoots, home),
    policy: readPolicy(r),
    rateLimit: readRateLimit(r),
  };
  let server: ServerConfig | undefined;
  if (transport === 'stdio') {
    r.unknownKeys(STDIO_FIELDS);
    if (r.has('envFile'))
      r.issue('envFile', 'no envFile (not supported: list the variables in "env")', r.obj.envFile);
    const stdio: StdioServerConfig = {
      ...common,
      transport,
      command: r.string('command', { allowEmpty: false }) ?? '',
      args: r.stringArray('args') ?? [],
      env: r.stringMap('env') ?? {},
      cwd: r.string('cwd', { allowEmpty: false }),
      stderr: r.oneOf('stderr', ['capture', 'inherit', 'ignore'] as const) ?? 'capture',
    };
    if (stdio.cwd !== undefined) {
      const cwd = parseRoot(stdio.cwd, home);
      if ('error' in cwd) r.issue('cwd', `an absolute directory (${stdio.cwd} ${cwd.error})`);
      else stdio.cwd = cwd.path;
    }
    server = stdio;
  } else {
    r.unknownKeys(HTTP_FIELDS);
    const key = r.has('url') ? 'url' : 'serverUrl';
    const url = r.string(key, { required: true, allowEmpty: false });
    if (url !== undefined) checkUrl(r, key, url);
    const http: HttpServerConfig = {
      ...common,
      transport,
      url: url ?? '',
      headers: r.stringMap('headers') ?? {},
      legacySseFallback: r.boolean('legacySseFallback') ?? true,
    };
    server = http;
  }
  return issues.length === before ? server : undefined;
}

function checkUrl(r: FieldReader, key: string, url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    r.issue(key, 'an absolute http:// or https:// URL', url);
    return;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    r.issue(key, 'an http:// or https:// URL', url);
  } else if (parsed.username || parsed.password) {
    r.issue(
      key,
      'a URL without credentials in it (put them in "headers")',
      parsed.protocol + '//…@' + parsed.host,
      true,
    );
  }
}

function readTimeouts(r: FieldReader): Timeouts {
  const t = r.object('timeouts');
  t?.unknownKeys(['connectMs', 'callMs', 'probeMs']);
  const range = { min: 1, max: 24 * 3600_000, integer: true };
  // Cline's `timeout` is in seconds; ours is `timeoutMs`.
  const seconds = r.number('timeout', { min: 1, max: 24 * 3600 });
  return {
    connectMs: t?.number('connectMs', range) ?? DEFAULT_TIMEOUTS.connectMs,
    callMs:
      t?.number('callMs', range) ??
      r.number('timeoutMs', range) ??
      (seconds === undefined ? DEFAULT_TIMEOUTS.callMs : seconds * 1000),
    probeMs: t?.number('probeMs', range) ?? DEFAULT_TIMEOUTS.probeMs,
  };
}

function readRestart(r: FieldReader): RestartPolicy {
  const o = r.object('restart');
  if (!o) return { ...DEFAULT_RESTART };
  o.unknownKeys(['maxRestarts', 'initialDelayMs', 'maxDelayMs', 'resetAfterMs']);
  const ms = { min: 1, max: 3600_000, integer: true };
  return {
    maxRestarts: o.number('maxRestarts', { min: 0, max: 1000, integer: true }) ?? DEFAULT_RESTART.maxRestarts,
    initialDelayMs: o.number('initialDelayMs', ms) ?? DEFAULT_RESTART.initialDelayMs,
    maxDelayMs: o.number('maxDelayMs', ms) ?? DEFAULT_RESTART.maxDelayMs,
    resetAfterMs: o.number('resetAfterMs', ms) ?? DEFAULT_RESTART.resetAfterMs,
  };
}

function readServerRoots(
  r: FieldReader,
  hostRoots: readonly string[],
  home: string | undefined,
): string[] | undefined {
  const roots = readRoots(r, 'roots', home);
  if (!roots || hostRoots.length === 0) return roots;
  roots.forEach((p, i) => {
    if (!hostRoots.some((h) => isWithin(p, h))) {
      r.issue(`roots[${i}]`, `a directory inside the host's roots (${hostRoots.join(', ')})`, p);
    }
  });
  return roots;
}

function readPolicy(r: FieldReader): ServerPolicy {
  const policy: ServerPolicy = {};
  const p = r.object('policy');
  if (p) {
    p.unknownKeys(['default', 'tools', 'reads']);
    const d = p.oneOf('default', DECISIONS);
    if (d) policy.default = d;
    const reads = p.oneOf('reads', DECISIONS);
    if (reads) policy.reads = reads;
    const tools = p.object('tools');
    if (tools) {
      policy.tools = {};
      for (const tool of Object.keys(tools.obj)) {
        const decision = tools.oneOf(tool, DECISIONS);
        if (decision) policy.tools[tool] = decision;
      }
    }
  }
  // Cline's autoApprove and Roo's alwaysAllow: tool names that run without asking.
  for (const key of ['autoApprove', 'alwaysAllow']) {
    for (const tool of r.stringArray(key) ?? []) {
      policy.tools ??= {};
      if (policy.tools[tool] === undefined) policy.tools[tool] = 'allow' satisfies Decision;
    }
  }
  return policy;
}

function readRateLimit(r: FieldReader): RateLimit | undefined {
  const o = r.object('rateLimit');
  if (!o) return undefined;
  o.unknownKeys(['calls', 'perMs']);
  const calls = o.number('calls', { min: 1, max: 1_000_000, integer: true });
  if (calls === undefined && !o.has('calls'))
    o.issue(o.path('calls'), 'a number of calls per window', undefined);
  const perMs = o.number('perMs', { min: 1, max: 24 * 3600_000, integer: true }) ?? 60_000;
  return calls === undefined ? undefined : { calls, perMs };
}
