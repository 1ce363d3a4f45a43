#!/usr/bin/env node
/**
 * The client the official conformance suite drives: `node dist/conformance/client.js <url>`
 * with `MCP_CONFORMANCE_SCENARIO` naming what to do and `MCP_CONFORMANCE_PROTOCOL_VERSION`
 * the revision (the stateless era for 2026-07-28, else the initialize handshake). It drives
 * our `Client` over Streamable HTTP, and always exits by itself: the client is closed when the scenario ends, and a hard timer
 * ends the process if something still hangs.
 *
 * Exit codes: 0 the scenario ran, 1 it failed, 2 usage or a scenario we do not support.
 * The `auth/*` scenarios are in ./auth-scenarios.ts.
 */
import { pathToFileURL } from 'node:url';
import { Client } from '../client/client.js';
import { listSkills, loadSkill } from '../client/index.js';
import type { ClientHandlers } from '../client/types.js';
import { ALL_VERSIONS, eraOf } from '../protocol/versions.js';
import type { Era } from '../protocol/versions.js';
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

/** Lists the tools and calls each one the client kept (a tool error is logged, not fatal). */
async function callEveryTool(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  log(`${tools.length} tool(s): ${tools.map((t) => t.name).join(', ')}`);
  for (const tool of tools) {
    const result = await client.callTool({ name: tool.name, arguments: {} });
    log(`${tool.name} → ${JSON.stringify(result.content)}`);
  }
}

/**
 * Loads every listed skill as a host activating it would, then reads its other files. A
 * skill that fails verification is refused (logged), and nothing more of it is read.
 */
async function loadEverySkill(client: Client): Promise<void> {
  for (const entry of await listSkills(client)) {
    let skill;
    try {
      skill = await loadSkill(client, entry);
    } catch (e) {
      log(`refused ${entry.uri}: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    const files = entry.resources === 'dynamic' ? [] : entry.resources;
    for (const r of files) if (r.uri !== entry.uri) await skill.readFile(r.uri);
    log(`loaded ${entry.uri}`);
  }
}

/** The tool calls a scenario's `MCP_CONFORMANCE_CONTEXT` asks for (http-custom-headers). */
function contextToolCalls(): Array<{ name: string; arguments: Record<string, unknown> }> {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  const ctx: unknown = raw ? JSON.parse(raw) : {};
  const calls = (ctx as { toolCalls?: unknown }).toolCalls;
  return Array.isArray(calls) ? (calls as Array<{ name: string; arguments: Record<string, unknown> }>) : [];
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
  // Every request carries the modern _meta and headers; a version the server lists but
  // rejects is retried (the client's era selection does it).
  'request-metadata': {
    async run(client) {
      if (client.serverCapabilities?.tools) await client.listTools();
    },
  },
  // input_required rounds: the requestState is echoed untouched, only where one was sent,
  // and never leaks into another call.
  'sep-2322-client-request-state': {
    handlers: { elicitation: () => ({ action: 'accept', content: { confirmed: true } }) },
    run: callEveryTool,
  },
  // Mcp-Method and Mcp-Name on every request kind.
  'http-standard-headers': {
    async run(client) {
      await callEveryTool(client);
      const { resources } = await client.listResources();
      for (const r of resources) await client.readResource({ uri: r.uri });
      const { prompts } = await client.listPrompts();
      for (const p of prompts) await client.getPrompt({ name: p.name });
    },
  },
  // x-mcp-header arguments mirrored into Mcp-Param-* headers, with the calls the context names.
  'http-custom-headers': {
    async run(client) {
      await client.listTools();
      for (const call of contextToolCalls()) {
        const result = await client.callTool(call);
        log(`${call.name} → ${JSON.stringify(result.content)}`);
      }
    },
  },
  // Tools with invalid x-mcp-header annotations are left out of the list; the rest are usable.
  'http-invalid-tool-headers': { run: callEveryTool },
  // A network $ref in an inputSchema is never fetched.
  'json-schema-ref-no-deref': {
    async run(client) {
      const { tools } = await client.listTools();
      log(`${tools.length} tool(s) listed`);
    },
  },
  // The inputSchema we were given goes back verbatim.
  'json-schema-2020-12-preservation': {
    async run(client) {
      const { tools } = await client.listTools();
      const focal = tools.find((t) => t.name === 'json_schema_2020_12_tool');
      if (!focal) throw new Error('json_schema_2020_12_tool is not listed');
      await callTool(client, 'json_schema_echo', { schema: focal.inputSchema });
    },
  },
  // Skills (SEP-2640): listing reads no file.
  'sep-2640-client-no-prefetch': {
    async run(client) {
      const skills = await listSkills(client);
      log(`${skills.length} skill(s): ${skills.map((s) => s.uri).join(', ')}`);
    },
  },
  // Loading verifies SKILL.md (size, digest, frontmatter) before anything else is read.
  'sep-2640-client-verify-digest': { run: loadEverySkill },
  'sep-2640-client-verify-size': { run: loadEverySkill },
  'sep-2640-client-verify-frontmatter': { run: loadEverySkill },
  // The server closes the call's SSE stream after its priming event (`retry: 500`); the
  // transport reconnects with GET and Last-Event-ID after that delay and gets the result there.
  'sse-retry': {
    async run(client) {
      await client.listTools();
      await callTool(client, 'test_reconnection', {});
    },
  },
};

/**
 * The era and versions to offer for the protocol version the suite asks for
 * (`MCP_CONFORMANCE_PROTOCOL_VERSION`): the stateless era for 2026-07-28 and later, else
 * the initialize handshake offering that version as the newest.
 */
export function eraFor(requested: string | undefined): { era: Era; versions?: string[] } {
  if (!requested) return { era: 'legacy' };
  if (eraOf(requested) === 'modern') return { era: 'modern' };
  const versions = ALL_VERSIONS.filter((v) => eraOf(v) === 'legacy' && v <= requested);
  return versions.length > 0 ? { era: 'legacy', versions } : { era: 'legacy' };
}

/** Runs one scenario against `url`; resolves with the exit code. */
export async function runScenario(
  name: string,
  url: string,
  requested: string | undefined = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION,
): Promise<number> {
  const scenario: Scenario | undefined =
    SCENARIOS[name] ?? (name.startsWith('auth/') ? authScenario(name) : undefined);
  if (!scenario) {
    log(`unsupported scenario "${name}". Known: ${Object.keys(SCENARIOS).join(', ')}, auth/*`);
    return 2;
  }
  const client = new Client(
    { name: 'mcpkit-conformance-client', version: '0.1.0' },
    {
      ...eraFor(requested),
      timeoutMs: 20_000,
      ...(scenario.handlers ? { handlers: scenario.handlers } : {}),
    },
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
