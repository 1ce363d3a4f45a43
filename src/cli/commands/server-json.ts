import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describeJsonError } from '../../jsonrpc/json-position.js';
import { CliFailure, ExitCode } from '../exit-codes.js';
import { openClient, parseCommand } from '../connection.js';
import { buildServerJson } from '../registry/build-server-json.js';
import type { ServerIdentity, ServerJsonInputs } from '../registry/build-server-json.js';
import { formatIssues, validateServerJson } from '../../host/registry/validate-server-json.js';

export const serverJsonHelp = `Usage: mcpkit server-json [options] [target]
       mcpkit server-json --check [FILE]

Writes a server.json for the MCP Registry (schema 2025-12-11) and checks it: the registry's
JSON Schema, then the official registry's own rules (no version ranges or "latest", name and
package.json "mcpName" agree, only the publisher-provided _meta key is kept, public remotes...).
Every problem names its field by JSON pointer; any error exits 2 and writes nothing.

Where the values come from:
  package.json (in --dir)   the npm package (name, version, bin run with npx, stdio),
                            mcpName (the server's registry name), description, repository,
                            homepage (websiteUrl)
  a target, when given      the server's own serverInfo: title, description, icons,
                            websiteUrl (the server is started or reached, then closed)
  the options below         the rest

Options:
  --dir DIR                 the package's folder (default: the current one)
  --name NAME               registry name, reverse-DNS (io.github.user/server; default mcpName)
  --description TEXT        (at most 100 characters)
  --title TEXT
  --version VERSION         (default package.json's version)
  --remote URL              a remote endpoint (repeatable)
  --transport TYPE          streamable-http (default) or sse, for --remote
  --remote-only             leave the npm package out
  --env NAME[=DESCRIPTION]  a required environment variable of the package (repeatable)
  --secret NAME[=DESCRIPTION]  a required secret environment variable (repeatable)
  --arg VALUE               a positional argument to the package's command (repeatable)
  -o, --out FILE            where to write (default server.json in --dir; - for stdout)
  --check                   check an existing server.json (default ./server.json) instead

Target (optional; one of): --url URL, --server NAME [--config FILE], -- COMMAND ARGS...

Examples:
  mcpkit server-json
  mcpkit server-json --secret API_KEY="Your API key" -- node dist/server.js
  mcpkit server-json --remote https://mcp.example.com/mcp --remote-only --name com.example/weather
  mcpkit server-json --check server.json`;

const own = {
  dir: { type: 'string' },
  name: { type: 'string' },
  description: { type: 'string' },
  title: { type: 'string' },
  version: { type: 'string' },
  remote: { type: 'string', multiple: true },
  transport: { type: 'string' },
  'remote-only': { type: 'boolean' },
  env: { type: 'string', multiple: true },
  secret: { type: 'string', multiple: true },
  arg: { type: 'string', multiple: true },
  out: { type: 'string', short: 'o' },
  check: { type: 'boolean' },
} as const;

function readJson(file: string, what: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CliFailure(`${what}: ${(e as Error).message}`, ExitCode.Usage);
  }
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('not a JSON object');
    return v as Record<string, unknown>;
  } catch (e) {
    throw new CliFailure(`${file}: not valid JSON: ${describeJsonError(text, e)}`, ExitCode.Usage);
  }
}

function envEntries(words: string[] | undefined, secret: boolean): NonNullable<ServerJsonInputs['env']> {
  return (words ?? []).map((w) => {
    const eq = w.indexOf('=');
    const name = eq === -1 ? w : w.slice(0, eq);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new CliFailure(
        `--${secret ? 'secret' : 'env'}: "${name}" is not an environment variable name`,
        ExitCode.Usage,
      );
    return { name, secret, ...(eq === -1 ? {} : { description: w.slice(eq + 1) }) };
  });
}

/** The running server's serverInfo, when a target was given. */
async function identityOf(parsed: ReturnType<typeof parseCommand>): Promise<ServerIdentity | undefined> {
  const g = parsed.global;
  if (g.url === undefined && g.server === undefined && g.command.length === 0) return undefined;
  const client = await openClient(g);
  try {
    return client.serverInfo as ServerIdentity | undefined;
  } finally {
    await client.close();
  }
}

/** Reports the issues; true when one of them is an error. */
function report(issues: Awaited<ReturnType<typeof validateServerJson>>, file: string): boolean {
  if (issues.length > 0) console.error(`${file}:\n${formatIssues(issues).replace(/^/gm, '  ')}`);
  return issues.some((i) => i.severity === 'error');
}

export async function serverJson(argv: string[]): Promise<number> {
  const parsed = parseCommand(argv, own, serverJsonHelp);
  if (parsed.help) {
    console.log(serverJsonHelp);
    return ExitCode.Ok;
  }
  const v = parsed.values;
  const dir = resolve((v.dir as string | undefined) ?? '.');
  const pkgFile = join(dir, 'package.json');
  const packageJson = existsSync(pkgFile) ? readJson(pkgFile, 'package.json') : undefined;

  if (v.check === true) {
    const file = parsed.positionals[0] ?? join(dir, 'server.json');
    const issues = await validateServerJson(readJson(file, file), packageJson);
    if (report(issues, file)) return ExitCode.Usage;
    console.log(`${file} is valid${issues.length > 0 ? ` (${issues.length} warning(s))` : ''}`);
    return ExitCode.Ok;
  }
  if (parsed.positionals.length > 0)
    throw new CliFailure(
      `Unexpected argument "${parsed.positionals[0]}"; see mcpkit server-json --help`,
      ExitCode.Usage,
    );

  const transport = (v.transport as string | undefined) ?? 'streamable-http';
  if (transport !== 'streamable-http' && transport !== 'sse')
    throw new CliFailure(`--transport must be streamable-http or sse, not "${transport}"`, ExitCode.Usage);
  const remotes = ((v.remote as string[] | undefined) ?? []).map(
    (url) => ({ type: transport, url }) as const,
  );
  if (v['remote-only'] === true && remotes.length === 0)
    throw new CliFailure('--remote-only needs at least one --remote URL', ExitCode.Usage);
  if (packageJson === undefined && remotes.length === 0)
    throw new CliFailure(`No package.json in ${dir} and no --remote URL: nothing to publish`, ExitCode.Usage);

  const server = await identityOf(parsed);
  const doc = buildServerJson({
    ...(v.name !== undefined ? { name: v.name as string } : {}),
    ...(v.description !== undefined ? { description: v.description as string } : {}),
    ...(v.title !== undefined ? { title: v.title as string } : {}),
    ...(v.version !== undefined ? { version: v.version as string } : {}),
    ...(packageJson !== undefined ? { packageJson } : {}),
    ...(server !== undefined ? { server } : {}),
    remoteOnly: v['remote-only'] === true,
    remotes,
    env: [
      ...envEntries(v.env as string[] | undefined, false),
      ...envEntries(v.secret as string[] | undefined, true),
    ],
    args: (v.arg as string[] | undefined) ?? [],
  });
  const out = (v.out as string | undefined) ?? join(dir, 'server.json');
  const issues = await validateServerJson(doc, packageJson);
  if (report(issues, out === '-' ? 'server.json' : out)) return ExitCode.Usage;
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  if (out === '-') process.stdout.write(text);
  else {
    writeFileSync(out, text);
    console.log(`Wrote ${out} (${String(doc.name)} ${String(doc.version)})`);
  }
  return ExitCode.Ok;
}
