#!/usr/bin/env node
/**
 * The client the official conformance suite drives: `node dist/conformance/client.js <url>`
 * with `MCP_CONFORMANCE_SCENARIO` naming what to do. It speaks the legacy era (the suite
 * covers 2025-06-18 and 2025-11-25 only) through our `Client` over Streamable HTTP, and
 * always exits by itself: the client is closed when the scenario ends, and a hard timer
 * ends the process if something still hangs.
 *
 * Exit codes: 0 the scenario ran, 1 it failed, 2 usage or a scenario we do not support.
 * The `auth/*` scenarios are in ./auth-scenarios.ts.
 */
import { pathToFileURL } from 'node:url';
import { Client } from '../client/index.js';
import type { ClientHandlers } from '../client/index.js';
import { StreamableHttpClientTransport } from '../transports/http-client/node.js';
import { authScenario } from './auth-scenarios.js';

/** Well under the suite's 30 s, so a hang shows as our error rather than its timeout. */
export const HARD_TIMEOUT_MS = 25_000;
/** How long the process may linger after the client closed before it is ended. */
const EXIT_GRACE_MS = 3_000;

/** What one scenario needs from the client, and what it does once connected. */
export interface Scenario {
  handlers?: ClientHandlers;
  /** The fetch the transport uses for `url` (the auth scenarios authorize through it). */
  fetchFor?(url: string): typeof fetch;
  run(client: Client): Promise<void>;
}

function log(message: string): void {
  process.stderr.write(`[conformance-client] ${message}\n`);
}

/** Calls a tool and fails when the result is a tool error. */
async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<void> {
  const result = await client.callTool({ name, arguments: args });
  log(`${name} → ${JSON.stringify(result.content)}`);
  if (result.isError === true) throw new Error(`${name} answered isError: ${JSON.stringify(result.content)}`);
}

export const SCENARIOS: Readonly<Record<string, Scenario>> = {
  // Connect (initialize + initialized), list the tools if the server has any, leave.
  initialize: {
    async run(client) {
      if (!client.serverCapabilities?.tools) return;
      const { tools } = await client.listTools();
      log(`${tools.length} tool(s)`);
    },
  },
  tools_call: {
    async run(client) {
      await client.listTools();
      await callTool(client, 'add_numbers', { a: 5, b: 3 });
    },
  },
  // Accept with no content: the client fills every omitted field from the schema defaults (SEP-1034).
  'elicitation-sep1034-client-defaults': {
    handlers: {
      elicitation: (params) => {
        log(`elicitation: ${params.message}`);
        return { action: 'accept', content: {} };
      },
    },
    async run(client) {
      await client.listTools();
      await callTool(client, 'test_client_elicitation_defaults', {});
    },
  },
  // The server closes the call's SSE stream after its priming event (`retry: 500`); the
  // transport reconnects with GET and Last-Event-ID after that delay and gets the result there.
  'sse-retry': {
    async run(client) {
      await client.listTools();
      await callTool(client, 'test_reconnection', {});
    },
  },
};

/** Runs one scenario against `url`; resolves with the exit code. */
export async function runScenario(name: string, url: string): Promise<number> {
  const scenario: Scenario | undefined =
    SCENARIOS[name] ?? (name.startsWith('auth/') ? authScenario(name) : undefined);
  if (!scenario) {
    log(`unsupported scenario "${name}". Known: ${Object.keys(SCENARIOS).join(', ')}, auth/*`);
    return 2;
  }
  const client = new Client(
    { name: 'mcpkit-conformance-client', version: '0.1.0' },
    { era: 'legacy', timeoutMs: 20_000, ...(scenario.handlers ? { handlers: scenario.handlers } : {}) },
  );
  client.onerror = (e) => log(`background error: ${String(e)}`);
  const transport = new StreamableHttpClientTransport({
    url,
    ...(scenario.fetchFor ? { fetch: scenario.fetchFor(url) } : {}),
    onwarning: (message, detail) => log(`warning: ${message}${detail ? ` (${String(detail)})` : ''}`),
  });
  try {
    await client.connect(transport);
    log(`connected: ${client.protocolVersion}, server ${JSON.stringify(client.serverInfo)}`);
    await scenario.run(client);
    return 0;
  } catch (e) {
    log(`scenario ${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return 1;
  } finally {
    await client.close().catch((e: unknown) => log(`close failed: ${String(e)}`));
  }
}

async function main(): Promise<void> {
  const hard = setTimeout(() => {
    log(`gave up after ${HARD_TIMEOUT_MS} ms`);
    process.exit(1);
  }, HARD_TIMEOUT_MS);
  hard.unref();
  const url = process.argv[process.argv.length - 1];
  const name = process.env.MCP_CONFORMANCE_SCENARIO;
  if (process.argv.length < 3 || !url || !/^https?:\/\//.test(url) || !name) {
    log('usage: MCP_CONFORMANCE_SCENARIO=<name> node dist/conformance/client.js <url>');
    process.exitCode = 2;
    return;
  }
  const code = await runScenario(name, url);
  process.exitCode = code;
  // Everything is closed; should a handle still hold the loop, say so and leave anyway.
  const grace = setTimeout(() => {
    log(`a handle kept the process alive ${EXIT_GRACE_MS} ms after close; exiting`);
    process.exit(code);
  }, EXIT_GRACE_MS);
  grace.unref();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
