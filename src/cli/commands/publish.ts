import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { describeJsonError } from '../../jsonrpc/json-position.js';
import { CliFailure, ExitCode } from '../exit-codes.js';
import { argumentsError } from '../parse-error.js';
import {
  authRequest,
  describeRequest,
  OFFICIAL_REGISTRY,
  publish as publishTo,
  publishRequest,
} from '../registry/publish-client.js';
import type { RegistryCredential } from '../registry/publish-client.js';
import { formatIssues, validateServerJson } from '../../host/registry/validate-server-json.js';

export const publishHelp = `Usage: mcpkit publish [FILE] [options]

Publishes a server.json (default ./server.json) to an MCP Registry: checks it as
"mcpkit server-json --check" does, signs in, then POSTs it to <registry>/v0.1/publish.

Sign-in (one of; the registry grants names by how you sign in):
  --token TOKEN             a registry token you already have (or MCP_REGISTRY_TOKEN)
  --github-token TOKEN      a GitHub token (PAT with read:org, read:user; or GITHUB_TOKEN),
                            exchanged at /v0.1/auth/github-at: io.github.<user or org>/*
  --github-oidc TOKEN       a GitHub Actions OIDC token, exchanged at /v0.1/auth/github-oidc
  --dns DOMAIN              domain sign-in by DNS TXT record (/v0.1/auth/dns), or
  --http DOMAIN             by https://DOMAIN/.well-known/mcp-registry-auth (/v0.1/auth/http);
                            both with --private-key HEX (an Ed25519 seed, 64 hex characters,
                            or MCP_REGISTRY_PRIVATE_KEY): com.example.*/*
  --anonymous               no sign-in (/v0.1/auth/none; local test registries only)

Options:
  --registry URL            default ${OFFICIAL_REGISTRY}
  --dry-run                 print the exact HTTP requests (credentials redacted); send nothing
  --timeout MS              for each request (default 30000)

Examples:
  mcpkit publish --github-token "$GITHUB_TOKEN"
  mcpkit publish ./server.json --dns example.com --private-key "$KEY" --dry-run
  mcpkit publish --registry http://127.0.0.1:8080 --anonymous`;

const spec = {
  token: { type: 'string' },
  'github-token': { type: 'string' },
  'github-oidc': { type: 'string' },
  dns: { type: 'string' },
  http: { type: 'string' },
  'private-key': { type: 'string' },
  anonymous: { type: 'boolean' },
  registry: { type: 'string' },
  'dry-run': { type: 'boolean' },
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function credential(v: Record<string, unknown>, env: NodeJS.ProcessEnv): RegistryCredential {
  const given = ['token', 'github-token', 'github-oidc', 'dns', 'http', 'anonymous'].filter(
    (k) => v[k] !== undefined,
  );
  if (given.length > 1)
    throw new CliFailure(`Choose one way to sign in, not --${given.join(' and --')}`, ExitCode.Usage);
  const s = (k: string) => v[k] as string;
  switch (given[0]) {
    case 'token':
      return { kind: 'token', token: s('token') };
    case 'github-token':
      return { kind: 'github', githubToken: s('github-token') };
    case 'github-oidc':
      return { kind: 'github-oidc', oidcToken: s('github-oidc') };
    case 'anonymous':
      return { kind: 'none' };
    case 'dns':
    case 'http': {
      const key = (v['private-key'] as string | undefined) ?? env.MCP_REGISTRY_PRIVATE_KEY;
      if (key === undefined)
        throw new CliFailure(
          `--${given[0]} needs --private-key HEX (or MCP_REGISTRY_PRIVATE_KEY)`,
          ExitCode.Usage,
        );
      return { kind: given[0], domain: s(given[0]), privateKeyHex: key };
    }
  }
  if (env.MCP_REGISTRY_TOKEN) return { kind: 'token', token: env.MCP_REGISTRY_TOKEN };
  if (env.GITHUB_TOKEN) return { kind: 'github', githubToken: env.GITHUB_TOKEN };
  throw new CliFailure(
    'No sign-in: pass --token, --github-token, --github-oidc, --dns/--http with --private-key, or --anonymous',
    ExitCode.Usage,
  );
}

export async function publish(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: spec, allowPositionals: true, strict: true });
  } catch (e) {
    throw argumentsError(e, 'publish', spec);
  }
  const v = parsed.values as Record<string, unknown>;
  if (v.help === true) {
    console.log(publishHelp);
    return ExitCode.Ok;
  }
  if (parsed.positionals.length > 1)
    throw new CliFailure(`Unexpected argument "${parsed.positionals[1]}"`, ExitCode.Usage);
  const registry = (v.registry as string | undefined) ?? OFFICIAL_REGISTRY;
  try {
    const u = new URL(registry);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('not http');
  } catch {
    throw new CliFailure(`--registry must be an http or https URL, not "${registry}"`, ExitCode.Usage);
  }
  const timeoutMs = v.timeout === undefined ? 30_000 : Number(v.timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
    throw new CliFailure('--timeout must be a positive number of ms', ExitCode.Usage);
  const cred = credential(v, process.env);

  const file = resolve(parsed.positionals[0] ?? 'server.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CliFailure(`${file}: ${(e as Error).message}`, ExitCode.Usage);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new CliFailure(`${file}: not valid JSON: ${describeJsonError(text, e)}`, ExitCode.Usage);
  }
  const pkgFile = join(dirname(file), 'package.json');
  const packageJson = existsSync(pkgFile)
    ? (JSON.parse(readFileSync(pkgFile, 'utf8')) as Record<string, unknown>)
    : undefined;
  const issues = await validateServerJson(doc, packageJson);
  if (issues.length > 0) console.error(`${file}:\n${formatIssues(issues).replace(/^/gm, '  ')}`);
  if (issues.some((i) => i.severity === 'error')) return ExitCode.Usage;

  if (v['dry-run'] === true) {
    let auth;
    try {
      auth = authRequest(registry, cred);
    } catch (e) {
      throw new CliFailure((e as Error).message, ExitCode.Usage);
    }
    const shown = [auth, publishRequest(registry, cred.kind === 'token' ? cred.token : 'from-sign-in', doc)];
    console.log(
      shown
        .filter((r) => r !== undefined)
        .map(describeRequest)
        .join('\n\n'),
    );
    console.error('mcpkit: dry run: nothing was sent');
    return ExitCode.Ok;
  }
  const answer = await publishTo(registry, cred, doc, AbortSignal.timeout(timeoutMs)).catch((e: unknown) => {
    throw new CliFailure(e instanceof Error ? e.message : String(e), ExitCode.Connection);
  });
  const d = doc as { name?: string; version?: string };
  console.log(
    `Published ${answer.server?.name ?? d.name ?? '?'} ${answer.server?.version ?? d.version ?? ''} to ${registry}`,
  );
  return ExitCode.Ok;
}
