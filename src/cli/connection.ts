import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { createInterface } from 'node:readline/promises';
import { Client } from '../client/client.js';
import type { EraPreference } from '../client/index.js';
import type { ClientHandlers } from '../client/types.js';
import { LocalError, WireError } from '../jsonrpc/index.js';
import type { Transport } from '../jsonrpc/index.js';
import type { ElicitResult } from '../protocol/types/index.js';
import { StdioClientTransport } from '../transports/stdio/index.js';
import { CliFailure, ExitCode } from './exit-codes.js';
import { palette } from './format.js';
import { argumentsError } from './parse-error.js';
import { expandEnv, findServer } from './server-config.js';
import { WireTap } from './wire-tap.js';
import { cliTelemetry } from './otel-wanted.js';

/** Options every command that talks to a server accepts. */
export interface GlobalOptions {
  url: string | undefined;
  server: string | undefined;
  config: string | undefined;
  command: string[];
  era: EraPreference;
  headers: Record<string, string>;
  timeoutMs: number | undefined;
  json: boolean;
  verbose: boolean;
  /** Consent to starting a config file's command without asking. */
  yes: boolean;
}

export const TARGET_HELP = `Target (one of):
  --url URL             a Streamable HTTP server (falls back to legacy HTTP+SSE)
  --server NAME         a server from a config file (--config FILE, or the usual places:
                        .mcp.json, .vscode/mcp.json, ~/.cursor/mcp.json, Claude Desktop)
  -- COMMAND ARGS...    a stdio server to start

Global options:
  --era legacy|auto|modern   protocol era (default auto: probe server/discover, fall back)
  --header "Name: value"     an HTTP header (repeatable)
  --timeout MS               per-request timeout (default 60000)
  --json                     machine-readable output
  --verbose                  wire traffic and details on stderr
  -y, --yes                  start a config file's command without asking (a config file
                             can come from anyone: a cloned repository's .mcp.json)`;

const globalSpec = {
  url: { type: 'string' },
  server: { type: 'string' },
  config: { type: 'string' },
  era: { type: 'string' },
  header: { type: 'string', multiple: true },
  timeout: { type: 'string' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean' },
  yes: { type: 'boolean', short: 'y' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * Parses a command's argv: global options, the command's own options, positionals, and
 * a stdio command after `--`.
 */
export function parseCommand<O extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  own: O,
  usage: string,
): { global: GlobalOptions; values: Record<string, unknown>; positionals: string[]; help: boolean } {
  const dash = argv.indexOf('--');
  const head = dash === -1 ? argv : argv.slice(0, dash);
  const command = dash === -1 ? [] : argv.slice(dash + 1);
  let parsed;
  try {
    parsed = parseArgs({
      args: head,
      options: { ...globalSpec, ...own },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    throw argumentsError(e, usage.split(' ')[1] ?? '', { ...globalSpec, ...own });
  }
  const v = parsed.values as Record<string, unknown>;
  const era = (v.era as string | undefined) ?? 'auto';
  if (era !== 'auto' && era !== 'legacy' && era !== 'modern') {
    throw new CliFailure(`--era must be legacy, auto or modern, not "${era}"`, ExitCode.Usage);
  }
  const headers: Record<string, string> = {};
  for (const h of (v.header as string[] | undefined) ?? []) {
    const colon = h.indexOf(':');
    if (colon <= 0) throw new CliFailure(`--header must look like "Name: value", not "${h}"`, ExitCode.Usage);
    headers[h.slice(0, colon).trim()] = h.slice(colon + 1).trim();
  }
  let timeoutMs: number | undefined;
  if (v.timeout !== undefined) {
    timeoutMs = Number(v.timeout);
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
      throw new CliFailure('--timeout must be a positive number of ms', ExitCode.Usage);
  }
  return {
    global: {
      url: v.url as string | undefined,
      server: v.server as string | undefined,
      config: v.config as string | undefined,
      command,
      era,
      headers,
      timeoutMs,
      json: v.json === true,
      verbose: v.verbose === true,
      yes: v.yes === true,
    },
    values: v,
    positionals: parsed.positionals,
    help: v.help === true,
  };
}

/** The HTTP client (undici) and the stored OAuth credentials (jose, oauth4webapi) load only for HTTP targets. */
const httpClient = () => import('../transports/http-client/node.js');

/** Builds the transport for the chosen target. */
export async function transportFor(g: GlobalOptions): Promise<Transport> {
  const chosen = [g.url !== undefined, g.server !== undefined, g.command.length > 0].filter(Boolean).length;
  if (chosen === 0)
    throw new CliFailure('No target: pass --url URL, --server NAME or -- COMMAND ARGS', ExitCode.Usage);
  if (chosen > 1) throw new CliFailure('Choose one target: --url, --server or -- COMMAND', ExitCode.Usage);
  let t: Transport;
  if (g.url !== undefined) {
    try {
      const u = new URL(g.url);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http');
    } catch {
      throw new CliFailure(`--url must be an http or https URL, not "${g.url}"`, ExitCode.Usage);
    }
    // Tokens from `mcpkit login` are used (and refreshed) when the server asks for them.
    const [{ StreamableHttpClientTransport }, { storedCredentials }] = await Promise.all([
      httpClient(),
      import('./commands/login.js'),
    ]);
    // A token given with --header is the user's choice: a 401 is reported as it is, rather
    // than starting a sign-in that would replace it.
    const ownToken = Object.keys(g.headers).some((h) => h.toLowerCase() === 'authorization');
    t = new StreamableHttpClientTransport({
      url: g.url,
      headers: g.headers,
      legacySseFallback: true,
      ...(ownToken ? {} : { auth: storedCredentials(g.url) }),
    });
  } else if (g.server !== undefined) {
    const { entry, file, doc } = findServer(g.server, g.config);
    await warnAboutEntry(doc, file, g.server);
    if (entry.url) {
      const headers: Record<string, string> = { ...g.headers };
      for (const [k, val] of Object.entries(entry.headers ?? {})) headers[k] = expandEnv(val);
      const { StreamableHttpClientTransport } = await httpClient();
      t = new StreamableHttpClientTransport({ url: expandEnv(entry.url), headers, legacySseFallback: true });
    } else if (entry.command) {
      const env: Record<string, string> = {};
      for (const [k, val] of Object.entries(entry.env ?? {})) env[k] = expandEnv(val);
      const args = (entry.args ?? []).map((a) => expandEnv(a));
      // A config file's command runs only with consent (loaded here: the host's UI is not small).
      const { consentToCommands } = await import('./command-consent.js');
      await consentToCommands(
        [{ name: g.server, command: entry.command, args, env, cwd: entry.cwd }],
        file,
        g.yes,
      );
      t = new QuietStdioTransport(entry.command, args, env, entry.cwd, g.verbose);
    } else {
      throw new CliFailure(`${file}: server "${g.server}" needs a command or a url`, ExitCode.Usage);
    }
  } else {
    t = new QuietStdioTransport(g.command[0]!, g.command.slice(1), {}, undefined, g.verbose);
  }
  return g.verbose ? new WireTap(t) : t;
}

/**
 * Prints the config reader's warnings about the chosen server's entry (unknown fields, with
 * a "did you mean"): a typo such as "polcy" would otherwise be ignored without a word.
 */
async function warnAboutEntry(doc: unknown, file: string, name: string): Promise<void> {
  const { parseHostConfig } = await import('../host/config/config-parse.js');
  let warnings: string[];
  try {
    warnings = parseHostConfig(doc, { file, env: process.env }).warnings;
  } catch {
    return; // A config the host would refuse still names a server the command can use.
  }
  const mine = `server ${JSON.stringify(name)}`;
  for (const w of warnings)
    if (w.includes(mine) || !w.includes(': server "')) process.stderr.write(`mcpkit: warning: ${w}\n`);
}

/**
 * A stdio transport whose server's stderr shows only with --verbose. Otherwise its last lines
 * are kept, so that a server which dies at start can say why (see `openClient`).
 */
class QuietStdioTransport extends StdioClientTransport {
  private readonly lines: string[] = [];
  private done: Promise<void> = Promise.resolve();

  constructor(
    command: string,
    args: string[],
    env: Record<string, string>,
    cwd: string | undefined,
    verbose: boolean,
  ) {
    super({ command, args, env, ...(cwd ? { cwd } : {}), stderr: verbose ? 'inherit' : 'pipe' });
  }

  override async start(sink: Parameters<StdioClientTransport['start']>[0]): Promise<void> {
    await super.start(sink);
    // Read from the start: Node drops what an exited child wrote to an unread pipe.
    const stream = this.stderr;
    if (!stream) return;
    let partial = '';
    stream.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') this.lines.push(line.slice(0, 500));
      this.lines.splice(0, Math.max(0, this.lines.length - 8));
    });
    this.done = new Promise((resolve) => stream.once('close', resolve));
  }

  /** The server's last stderr lines, once its stderr has closed (or after a second). */
  async lastLines(): Promise<string[]> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.done, new Promise((r) => (timer = setTimeout(r, 1000)))]);
    clearTimeout(timer);
    return [...this.lines];
  }
}

/** Questions being typed at the terminal now: status lines must not overwrite their prompt. */
export const terminalQuestions = { open: 0 };

/** Answers elicitation and sampling at the terminal when there is one, and declines otherwise. */
export function terminalHandlers(): ClientHandlers {
  const p = palette(process.stderr);
  const ask = async (question: string): Promise<string> => {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    terminalQuestions.open++;
    try {
      return await rl.question(question);
    } finally {
      terminalQuestions.open--;
      rl.close();
    }
  };
  return {
    elicitation: {
      url: true,
      handler: async (params): Promise<ElicitResult> => {
        if (!process.stdin.isTTY) return { action: 'decline' };
        const message = String(params.message ?? '');
        if ((params as { mode?: string }).mode === 'url') {
          process.stderr.write(
            `${p.yellow('The server asks you to open:')} ${String((params as { url?: string }).url)}\n`,
          );
          const yes = await ask(`${message} Opened it and finished? [y/N] `);
          return { action: /^y/i.test(yes) ? 'accept' : 'decline' };
        }
        process.stderr.write(`${p.yellow('The server asks:')} ${message}\n`);
        const content = await askFormFields(params, ask);
        return { action: 'accept', content };
      },
    },
    sampling: {
      handler: async (params) => {
        // A refusal the server can handle (the spec's "user rejected" code), not a crash.
        if (!process.stdin.isTTY)
          throw new WireError(-1, 'The user cannot review this sampling request: mcpkit has no terminal');
        const last = params.messages[params.messages.length - 1]?.content as
          { type?: string; text?: string } | undefined;
        process.stderr.write(
          `${p.yellow('The server asks the model:')} ${last?.text ?? '(non-text content)'}\n`,
        );
        const text = await ask('Type the completion: ');
        return { role: 'assistant', content: { type: 'text', text }, model: 'human', stopReason: 'endTurn' };
      },
    },
  };
}

/** Connects a client to the target, turning connection failures into exit code 3. */
export async function openClient(
  g: GlobalOptions,
  handlers: ClientHandlers = terminalHandlers(),
): Promise<Client> {
  const transport = await transportFor(g);
  const client = new Client(
    { name: 'mcpkit-cli', version: '0.1.0' },
    {
      era: g.era,
      handlers,
      ...(g.timeoutMs !== undefined ? { timeoutMs: g.timeoutMs } : {}),
      ...cliTelemetry(),
    },
  );
  try {
    await client.connect(transport);
  } catch (e) {
    const target = g.url ?? (g.server !== undefined ? `server "${g.server}"` : g.command.join(' '));
    const lines = transport instanceof QuietStdioTransport ? await transport.lastLines() : [];
    const said =
      lines.length > 0 ? `\nThe server's stderr (last lines):\n${lines.map((l) => `  ${l}`).join('\n')}` : '';
    // A version mismatch says what to do about it (another --era); other failures are best
    // told by their innermost cause ("connect ECONNREFUSED ...").
    const why = e instanceof LocalError && e.code === 'VersionMismatch' ? e.message : rootCause(e);
    throw new CliFailure(`Could not connect to ${target}: ${why}${said}`, ExitCode.Connection);
  }
  // Log lines as in the legacy era, where a server sends them until told otherwise; a modern
  // server sends none unless the request names a level (in `_meta`, no round trip).
  if (client.era === 'modern') await client.setLoggingLevel('debug');
  return client;
}

/** The innermost message of an error's cause chain: "connect ECONNREFUSED …" rather than a wrapper. */
export function rootCause(e: unknown): string {
  let msg = e instanceof Error ? e.message : String(e);
  for (let c: unknown = e, depth = 0; c instanceof Error && depth < 8; c = c.cause, depth++) msg = c.message;
  return msg;
}

/**
 * Asks for each field of an elicitation form, one question per property; an empty answer
 * leaves the field out. Numbers and booleans are converted as the schema says.
 */
export async function askFormFields(
  params: unknown,
  ask: (question: string) => Promise<string>,
): Promise<Record<string, string | number | boolean>> {
  const schema = (
    params as { requestedSchema?: { properties?: Record<string, { type?: string; description?: string }> } }
  ).requestedSchema;
  const content: Record<string, string | number | boolean> = {};
  for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
    const answer = await ask(`  ${name}${prop.description ? ` (${prop.description})` : ''}: `);
    if (answer === '') continue;
    content[name] =
      prop.type === 'number' || prop.type === 'integer'
        ? Number(answer)
        : prop.type === 'boolean'
          ? /^(y|yes|true)$/i.test(answer)
          : answer;
  }
  return content;
}
