import { createWriteStream } from 'node:fs';
import { basename } from 'node:path';
import { ConfigError, parseHostConfig } from '../../host/index.js';
import { serverTransport } from '../../host/node.js';
import { openInBrowser } from '../../host/supervision/node-transports.js';
import type { HostConfig, ServerConfig } from '../../host/index.js';
import { InspectorHost } from '../../inspector/inspector-host.js';
import { playgroundLlm } from '../../inspector/playground.js';
import type { SessionRecorder } from '../../inspector/session-recorder.js';
import { startInspectorServer } from '../../inspector/server.js';
import { StreamableHttpClientTransport } from '../../transports/http-client/node.js';
import { parseCommand, TARGET_HELP } from '../connection.js';
import type { GlobalOptions } from '../connection.js';
import { CliFailure, ExitCode } from '../exit-codes.js';
import { findServer } from '../server-config.js';
import { consentToCommands } from '../command-consent.js';
import { loadConfigFor } from './host.js';
import { storedCredentials } from './login.js';

export const inspectHelp = `Usage: mcpkit inspect [--port N] [--open] [--model NAME] [--record FILE] [<target>]

A web inspector for MCP servers, on 127.0.0.1: the servers and their health, tools with
forms built from their schemas, results by content type, MCP App views, resources and
subscriptions, prompts, elicitation and sampling answered in the page, the live log and
every JSON-RPC message. It prints the URL to open, with a random access token.

With --config FILE and no --server, every server of the config is inspected. With no
target at all, the page starts empty: connect servers from its Servers screen (a command
to start, or a URL).

Its Playground chats with the servers' tools through a model: the config's "llm" section
(its default model, or --model), keys from the environment; without one, you type the
model's answers. Sampling requests can be answered by that model once you approve them.

Options:
  --port N      the port (default 0: any free port)
  --open        open the page in the default browser
  --model NAME  the playground's model: a model of the config's "llm" section, or
                PROVIDER:MODEL (a configured provider, or openai or anthropic with the
                key and base URL from OPENAI_API_KEY/OPENAI_BASE_URL and the like)
  --record FILE write every message of the session to FILE as it passes (JSON lines,
                see docs/cli.md); replay it later with \`mcpkit replay FILE <target>\`

Deep links: append &tool=NAME&args=<URL-encoded JSON>&run=1 to the printed URL to open
that tool and run it.

${TARGET_HELP}

Examples:
  mcpkit inspect -- npx @modelcontextprotocol/server-everything
  mcpkit inspect --url http://127.0.0.1:3000/mcp --open
  mcpkit inspect --config .mcp.json
  mcpkit inspect --model openai:gpt-4.1-mini -- node server.js
  mcpkit inspect`;

/** A short name for a command's server: its last plain argument (`server-everything`), or the command. */
export function serverName(command: readonly string[]): string {
  const plain = command.slice(1).filter((a) => !a.startsWith('-') && !/^\d+$/.test(a));
  const last = plain[plain.length - 1] ?? command[0] ?? 'server';
  const name = basename(last)
    .replace(/\.(m?js|cjs|ts|py)$/, '')
    .replace(/[^\w.-]/g, '_');
  return name || 'server';
}

/** The host config for the command line's target: one server, or every server of a config file. */
async function configFor(g: GlobalOptions): Promise<HostConfig> {
  const chosen = [g.url !== undefined, g.server !== undefined, g.command.length > 0].filter(Boolean).length;
  if (chosen > 1) throw new CliFailure('Choose one target: --url, --server or -- COMMAND', ExitCode.Usage);
  // No target at all: an empty inspector, whose servers are connected from the page.
  if (chosen === 0 && g.config === undefined)
    return { ...parseHostConfig({ mcpServers: {} }), defaultDecision: 'allow' };
  const common = {
    era: g.era,
    ...(g.timeoutMs !== undefined ? { timeoutMs: g.timeoutMs } : {}),
  };
  let raw: Record<string, unknown>;
  if (g.url !== undefined) {
    let u: URL;
    try {
      u = new URL(g.url);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http');
    } catch {
      throw new CliFailure(`--url must be an http or https URL, not "${g.url}"`, ExitCode.Usage);
    }
    raw = { [u.hostname]: { url: g.url, headers: g.headers, ...common } };
  } else if (g.server !== undefined) {
    const { entry, doc } = findServer(g.server, g.config);
    raw = { [g.server]: { ...entry, ...common } };
    // The file's "llm" section stays: the playground's model comes from it.
    const llm = (doc as { mcpkit?: { llm?: unknown } }).mcpkit?.llm;
    if (llm !== undefined) return parsed({ mcpServers: raw, mcpkit: { llm } });
  } else if (g.command.length > 0) {
    raw = { [serverName(g.command)]: { command: g.command[0], args: g.command.slice(1), ...common } };
  } else {
    // Every server of the config file, as the host reads it.
    return { ...(await loadConfigFor(g.config)), defaultDecision: 'allow' };
  }
  return parsed({ mcpServers: raw });
}

function parsed(doc: Record<string, unknown>): HostConfig {
  try {
    // The person at the page decides each call: the inspector allows what no rule denies.
    return { ...parseHostConfig(doc, { env: process.env }), defaultDecision: 'allow' };
  } catch (e) {
    if (e instanceof ConfigError) throw new CliFailure(e.message.split('\n').join('; '), ExitCode.Usage);
    throw e;
  }
}

export async function inspect(argv: string[]): Promise<number> {
  const { global, values, help } = parseCommand(
    argv,
    {
      port: { type: 'string' },
      open: { type: 'boolean' },
      model: { type: 'string' },
      record: { type: 'string' },
    },
    'mcpkit inspect [--port N] [--open] [--model NAME] [--record FILE] <target>',
  );
  if (help) {
    console.log(inspectHelp);
    return ExitCode.Ok;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new CliFailure(`--port must be a port number, not "${String(values.port)}"`, ExitCode.Usage);
  const config = await configFor(global);
  if (global.command.length === 0) {
    // The config file's commands run only with consent; one typed after `--` is the person's own.
    const commands = Object.values(config.servers).filter((c) => c.transport === 'stdio' && !c.disabled);
    await consentToCommands(
      commands as Array<ServerConfig & { transport: 'stdio' }>,
      global.config ?? 'The config file',
      global.yes,
    );
  }
  const url = global.url;
  const model = values.model as string | undefined;
  try {
    playgroundLlm(config.llm, model);
  } catch (e) {
    throw new CliFailure((e as Error).message, ExitCode.Usage);
  }
  let recorder: SessionRecorder | undefined;
  const session = new InspectorHost(config, {
    ...(model !== undefined ? { model } : {}),
    onwire: (e) => recorder?.message(e),
    // A URL given on the command line uses the tokens `mcpkit login` stored for it.
    serverTransport: (c: ServerConfig) =>
      url !== undefined && c.transport === 'http' && c.url === url
        ? new StreamableHttpClientTransport({
            url,
            headers: c.headers,
            legacySseFallback: true,
            auth: storedCredentials(url),
          })
        : serverTransport(c),
  });
  if (typeof values.record === 'string') {
    const { SessionRecorder } = await import('../../inspector/session-recorder.js');
    const file = createWriteStream(values.record, { flags: 'w' });
    try {
      await new Promise((resolve, reject) =>
        file.once('ready', () => resolve(undefined)).once('error', reject),
      );
    } catch (e) {
      await session.close();
      throw new CliFailure(`Cannot write --record ${values.record}: ${(e as Error).message}`, ExitCode.Usage);
    }
    const r = new SessionRecorder(file, session.snapshot().targets);
    file.on('error', (e) => {
      r.failed = true;
      console.error(`mcpkit: --record ${String(values.record)}: ${e.message}; recording stopped`);
    });
    r.watch(session);
    recorder = r;
  }
  let server;
  try {
    server = await startInspectorServer(session, { port });
  } catch (e) {
    await session.close();
    throw new CliFailure(`Could not listen on 127.0.0.1:${port}: ${(e as Error).message}`, ExitCode.Usage);
  }
  console.log(`mcpkit inspector: open ${server.url}`);
  if (values.open === true)
    openInBrowser(server.url).catch((e: unknown) =>
      console.error(`mcpkit: could not open a browser: ${(e as Error).message}`),
    );
  // `on`, not `once`: a listener must stay registered while the signal is delivered, or
  // the stdio transport's own guard takes the signal as unhandled and ends the process
  // before the servers are closed cleanly.
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  void session.start().catch((e: unknown) => console.error(`mcpkit: ${(e as Error).message}`));
  await stopped;
  await server.close();
  await session.close();
  await recorder?.close();
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  return ExitCode.Ok;
}
