/**
 * Test-only support for integration scenarios: each scenario runs with our `Client` against
 * the demo "everything" server (lists paged by 2) over every transport × era combination
 * the transport allows — in-memory, stdio (a real child, `dist/demo/everything-stdio.js`)
 * and Streamable HTTP (a real loopback server, `serve()`) in legacy 2025-11-25 and modern
 * 2026-07-28, and legacy HTTP+SSE (the same `serve()`, its `/sse` endpoint) in the legacy
 * era only, the only one it has. One server (one child on stdio) and one client per
 * combination, shared by its scenarios. Every message either side sends is checked against the official
 * schema of the revision in use.
 *
 * Not part of the public API: nothing outside tests should import this module.
 */
import { after, afterEach, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '../client/index.js';
import type { ClientOptions } from '../client/index.js';
import type { Transport } from '../jsonrpc/index.js';
import type { Tool } from '../protocol/types/index.js';
import { createEverythingServer } from '../demo/everything-server.js';
import { ROOTS, elicit, sample } from './demo-cases.js';
import type { McpServer } from '../server/index.js';
import { createMemoryPair } from '../transports/memory/index.js';
import { StdioClientTransport } from '../transports/stdio/index.js';
import { serve } from '../serve/index.js';
import type { RunningServer } from '../serve/index.js';
import { SseClientTransport, StreamableHttpClientTransport } from '../transports/http-client/node.js';
import { WireTap } from './mcp-harness.js';
import type { Obj } from './mcp-harness.js';

export type TransportKind = 'memory' | 'stdio' | 'http' | 'sse';
export type EraKind = 'legacy' | 'modern';

/** Every transport and the eras it carries: legacy HTTP+SSE predates the modern era. */
export const MATRIX: ReadonlyArray<readonly [TransportKind, readonly EraKind[]]> = [
  ['memory', ['legacy', 'modern']],
  ['stdio', ['legacy', 'modern']],
  ['http', ['legacy', 'modern']],
  ['sse', ['legacy']],
];

export const REVISION: Readonly<Record<EraKind, string>> = { legacy: '2025-11-25', modern: '2026-07-28' };
export const PAGE_SIZE = 2;
export const STEP_MS = 10;

/** What a scenario gets: one connected client and everything seen on its wire. */
export interface ScenarioContext {
  readonly transport: TransportKind;
  readonly era: EraKind;
  readonly client: Client;
  readonly tap: WireTap;
  /** Questions the server asked (sampling, elicitation, roots), in order, from either era. */
  readonly asked: Array<{ method: string; params: Obj }>;
  /** Every tool list an automatic refresh reported. */
  readonly toolLists: Tool[][];
}

export interface Scenario {
  name: string;
  run(ctx: ScenarioContext): Promise<void>;
}

/**
 * Whether a cancelled request is cancelled by closing its own HTTP exchange (modern
 * Streamable HTTP) rather than by a `notifications/cancelled` message.
 */
export const cancelsByClosingStream = (ctx: Pick<ScenarioContext, 'transport' | 'era'>): boolean =>
  ctx.transport === 'http' && ctx.era === 'modern';

/** The requestIds the client cancelled with `notifications/cancelled`. */
export const cancelledIds = (tap: WireTap): unknown[] =>
  tap.notifications('notifications/cancelled', 'client').map((n) => (n.params as Obj).requestId);

const ENTRY = fileURLToPath(new URL('../demo/everything-stdio.js', import.meta.url));

interface Combo {
  ctx: ScenarioContext;
  close(): Promise<void>;
}

async function open(transport: TransportKind, era: EraKind): Promise<Combo> {
  const asked: ScenarioContext['asked'] = [];
  const toolLists: Tool[][] = [];
  let server: McpServer | undefined;
  let running: RunningServer | undefined;
  let inner: Transport;
  if (transport === 'memory') {
    server = createEverythingServer({ stepMs: STEP_MS, pageSize: PAGE_SIZE });
    const [clientSide, serverSide] = createMemoryPair();
    await server.connect(serverSide);
    inner = clientSide;
  } else if (transport === 'http' || transport === 'sse') {
    server = createEverythingServer({ stepMs: STEP_MS, pageSize: PAGE_SIZE });
    running = await serve(server, { port: 0 });
    inner =
      transport === 'http'
        ? new StreamableHttpClientTransport({ url: running.url })
        : new SseClientTransport({ url: `http://127.0.0.1:${running.port}/sse` });
  } else {
    inner = new StdioClientTransport({
      command: process.execPath,
      args: [ENTRY],
      env: { MCPKIT_DEMO_STEP_MS: String(STEP_MS), MCPKIT_PAGE_SIZE: String(PAGE_SIZE) },
      stderr: 'ignore',
      closeGraceMs: 500,
    });
  }
  const record = (method: string, params: unknown) => {
    asked.push({ method, params: JSON.parse(JSON.stringify(params)) as Obj });
  };
  const options: ClientOptions = {
    era,
    timeoutMs: 10_000,
    autoRefreshTools: true,
    ontoolschanged: (tools) => toolLists.push(tools),
    logger: () => undefined,
    handlers: {
      sampling: {
        tools: true,
        handler: (params) => (record('sampling/createMessage', params), sample(params as never) as never),
      },
      elicitation: (params) => (record('elicitation/create', params), elicit(params as never) as never),
      roots: ROOTS,
    },
  };
  const client = new Client({ name: 'mcpkit-integration', version: '1.0.0' }, options);
  const tap = new WireTap(inner, REVISION[era]);
  await client.connect(tap);
  return {
    ctx: { transport, era, client, tap, asked, toolLists },
    close: async () => {
      await client.close();
      await running?.close();
      await server?.close();
    },
  };
}

/**
 * Runs every scenario over every transport × era of {@link MATRIX}, as `describe` blocks named
 * `${title}: ${transport}, ${era}`, one `test` per scenario.
 */
export function runScenarios(title: string, scenarios: readonly Scenario[]): void {
  for (const [transport, eras] of MATRIX) {
    for (const era of eras) {
      describe(`${title}: ${transport}, ${era} (${REVISION[era]})`, () => {
        let combo: Combo | undefined;
        before(async () => {
          combo = await open(transport, era);
        });
        afterEach(() => combo?.ctx.tap.assertValid());
        after(async () => {
          await combo?.close();
        });
        for (const s of scenarios) test(s.name, () => s.run(combo!.ctx));
      });
    }
  }
}

/** The text of the first content block of a tool result. */
export const firstText = (r: { content: unknown[] }): string =>
  String((r.content[0] as Obj | undefined)?.text);
