/**
 * Test-only support for integration scenarios: each scenario runs with our `Client` against
 * the demo "everything" server (lists paged by 2) over every transport × era combination
 * — in-memory and stdio (a real child, `dist/demo/everything-stdio.js`), legacy 2025-11-25
 * and modern 2026-07-28. One server (one child on stdio) and one client per combination,
 * shared by its scenarios. Every message either side sends is checked against the official
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
import { ROOTS, elicit, sample } from '../demo/test-helpers.js';
import type { McpServer } from '../server/index.js';
import { createMemoryPair } from '../transports/memory/index.js';
import { StdioClientTransport } from '../transports/stdio/index.js';
import { WireTap } from './mcp-harness.js';
import type { Obj } from './mcp-harness.js';

export type TransportKind = 'memory' | 'stdio';
export type EraKind = 'legacy' | 'modern';

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

const ENTRY = fileURLToPath(new URL('../demo/everything-stdio.js', import.meta.url));

interface Combo {
  ctx: ScenarioContext;
  close(): Promise<void>;
}

async function open(transport: TransportKind, era: EraKind): Promise<Combo> {
  const asked: ScenarioContext['asked'] = [];
  const toolLists: Tool[][] = [];
  let server: McpServer | undefined;
  let inner: Transport;
  if (transport === 'memory') {
    server = createEverythingServer({ stepMs: STEP_MS, pageSize: PAGE_SIZE });
    const [clientSide, serverSide] = createMemoryPair();
    await server.connect(serverSide);
    inner = clientSide;
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
      await server?.close();
    },
  };
}

/**
 * Runs every scenario over every transport × era, as `describe` blocks named
 * `${title}: ${transport}, ${era}`, one `test` per scenario.
 */
export function runScenarios(title: string, scenarios: readonly Scenario[]): void {
  for (const transport of ['memory', 'stdio'] as const) {
    for (const era of ['legacy', 'modern'] as const) {
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
