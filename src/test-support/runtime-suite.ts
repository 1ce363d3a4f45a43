/**
 * The end-to-end suite every runtime passes (Node 20, 22 and 24, Bun, Deno, workerd): the
 * server fixture (test/runtimes/server-fixture.mjs) runs on the runtime, and this suite,
 * from the host Node, checks it over real loopback HTTP with mcpkit's client in both eras
 * (tools, `sum`'s raw JSON Schemas with good and bad input, resources, prompts, and
 * `tools/list_changed` twice), with the official SDK client, and with mcpkit's client run
 * ON the runtime (test/runtimes/client-fixture.mjs; on workerd, workerd-client-worker.mjs
 * as a Worker). The runtimes and how to start them are in test/runtimes/launchers.mjs;
 * `runtimeTests(name)` is a whole test file.
 */
import { test } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkStreamableHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '../client/client.js';
import type { Tool } from '../protocol/types/tools.js';
import { StreamableHttpClientTransport } from '../transports/http-client/index.js';
import { within } from './waiting.js';

/** What client-fixture.mjs prints: what mcpkit's client saw, run on the runtime. */
export interface ClientSummary {
  era?: string;
  protocolVersion?: string;
  tools?: string[];
  echo?: string;
  sum?: unknown;
  sumError?: unknown;
  resource?: string;
  prompt?: string;
  /** Set when the client threw: its stack. */
  error?: string;
  stderr: string;
}

/** A server fixture running on a runtime (launchers.mjs `start()`). */
export interface RunningFixture {
  readonly url: string;
  stderr(): string;
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** One runtime of test/runtimes/launchers.mjs. */
export interface RuntimeLauncher {
  readonly name: string;
  readonly label: string;
  binary(): string;
  start(options?: { port?: number }): Promise<RunningFixture>;
  /** Runs client-fixture.mjs in one era (absent on workerd, which has runClients only). */
  runClient?(options: { url: string; era: 'modern' | 'legacy' | 'auto' }): Promise<ClientSummary>;
  /** Several eras in one client process (on workerd, one client Worker): one summary per era, in order. */
  runClients?(options: {
    url: string;
    eras: readonly ('modern' | 'legacy' | 'auto')[];
  }): Promise<ClientSummary[]>;
  /** The deploy page whose `// server.ts` block runs as pasted (Bun, Deno), and how. */
  readonly recipe?: string;
  startRecipe?(options: { file: string; cwd: string }): Promise<RunningFixture>;
}

export interface RuntimeSuiteOptions {
  /** The fixture's endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** The runtime's name in test titles, e.g. `Deno`. */
  runtime: string;
  /** Runs mcpkit's client on the runtime (the launcher's `runClients`); absent: not checked. */
  runClients?: RuntimeLauncher['runClients'];
  /** What the server wrote on stderr so far: checked to be empty at the end. */
  serverStderr?: () => string;
}

const ERAS = ['modern', 'legacy'] as const;
/** Generous for a loaded 2-core machine; a passing run takes milliseconds. */
const CHANGE_MS = 10_000;

const textOf = (result: { content: readonly { type: string; text?: string }[] }): string =>
  result.content.map((block) => (block.type === 'text' ? (block.text ?? '') : '')).join('');

/** A unique tool name per check, since add_tool changes the one server every check shares. */
let added = 0;
const newToolName = (who: string): string => `added_${who}_${++added}_${Date.now().toString(36)}`;

/** Resolves with the tool lists a client reports, one at a time, as they come. */
class ToolChanges {
  private readonly seen: Tool[][] = [];
  private waiter: (() => void) | undefined;

  readonly push = (tools: Tool[]): void => {
    this.seen.push(tools);
    this.waiter?.();
  };

  /** Waits until a reported list holds `name` (an event, with a limit so a miss fails). */
  async listing(name: string, what: string): Promise<void> {
    const has = (): boolean => this.seen.some((tools) => tools.some((tool) => tool.name === name));
    const arrived = new Promise<void>((resolve) => {
      this.waiter = () => {
        if (has()) resolve();
      };
      this.waiter();
    });
    await within(arrived, CHANGE_MS, what);
  }
}

/** The checks one mcpkit client makes, in one era. */
async function checkMcpkitClient(url: string, era: 'modern' | 'legacy'): Promise<void> {
  const changes = new ToolChanges();
  const client = new Client(
    { name: 'runtime-suite', version: '1.0.0' },
    { era, timeoutMs: 10_000, autoRefreshTools: true, ontoolschanged: changes.push },
  );
  await client.connect(new StreamableHttpClientTransport({ url }));
  try {
    assert.equal(client.era, era);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    for (const name of ['echo', 'sum', 'add_tool'])
      assert.ok(names.includes(name), `${name} listed: ${names}`);
    const sumTool = (await client.listTools()).tools.find((tool) => tool.name === 'sum');
    assert.deepEqual(sumTool?.inputSchema.required, ['a', 'b'], 'the raw JSON Schema is listed as declared');
    assert.equal(sumTool?.outputSchema?.type, 'object');

    assert.equal(
      textOf(await client.callTool({ name: 'echo', arguments: { text: 'héllo 🌍' } })),
      'héllo 🌍',
    );
    const good = await client.callTool({ name: 'sum', arguments: { a: 2, b: 3 } });
    assert.deepEqual(good.structuredContent, { sum: 5 });
    assert.notEqual(good.isError, true);
    const bad = await client.callTool({ name: 'sum', arguments: { a: 'two' } });
    assert.equal(bad.isError, true, 'bad input is a tool error');
    assert.match(textOf(bad), /\S/, 'the error says what is wrong');

    const read = await client.readResource({ uri: 'test://hello' });
    assert.deepEqual(read.contents, [{ uri: 'test://hello', mimeType: 'text/plain', text: 'hello' }]);
    const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
    assert.equal(prompt.messages[0]?.role, 'user');
    assert.match(JSON.stringify(prompt.messages[0]?.content), /Ada/);

    // Two changes: the second must arrive too (a stream that delivers once and dies fails).
    for (const round of [1, 2]) {
      const name = newToolName(era);
      assert.equal(textOf(await client.callTool({ name: 'add_tool', arguments: { name } })), `added ${name}`);
      await changes.listing(name, `tools/list_changed #${round} (${name}) in the ${era} era`);
      assert.equal(textOf(await client.callTool({ name, arguments: {} })), `I am ${name}`);
    }
  } finally {
    await client.close();
  }
}

/** The official SDK (v1) client: list, call, read, prompt, and list_changed on its GET stream. */
async function checkSdkClient(url: string): Promise<void> {
  const client = new SdkClient({ name: 'runtime-suite-sdk', version: '1.0.0' });
  await client.connect(new SdkStreamableHttp(new URL(url)));
  try {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    for (const name of ['echo', 'sum', 'add_tool'])
      assert.ok(names.includes(name), `${name} listed: ${names}`);
    const echo = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    assert.deepEqual(echo.content, [{ type: 'text', text: 'hi' }]);
    const sum = await client.callTool({ name: 'sum', arguments: { a: 40, b: 2 } });
    assert.deepEqual(sum.structuredContent, { sum: 42 });
    const bad = await client.callTool({ name: 'sum', arguments: { b: 2 } });
    assert.equal(bad.isError, true);
    const read = await client.readResource({ uri: 'test://hello' });
    assert.equal((read.contents[0] as { text?: string }).text, 'hello');
    const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'Grace' } });
    assert.match(JSON.stringify(prompt.messages), /Grace/);

    for (const round of [1, 2]) {
      const changed = new Promise<void>((resolve) =>
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
      );
      const name = newToolName('sdk');
      await client.callTool({ name: 'add_tool', arguments: { name } });
      await within(changed, CHANGE_MS, `tools/list_changed #${round} to the SDK client`);
      const after = (await client.listTools()).tools.map((tool) => tool.name);
      assert.ok(after.includes(name), `${name} listed after the change`);
    }
  } finally {
    await client.close();
  }
}

/** What mcpkit's client on the runtime must have seen, in `era`. */
function checkClientSummary(summary: ClientSummary, era: 'modern' | 'legacy'): void {
  assert.equal(
    summary.error,
    undefined,
    `the client on the runtime failed:\n${summary.error}\n${summary.stderr}`,
  );
  assert.equal(summary.era, era);
  for (const name of ['echo', 'sum', 'add_tool']) assert.ok(summary.tools?.includes(name), `${name} listed`);
  assert.equal(summary.echo, 'héllo 🌍');
  assert.deepEqual(summary.sum, { sum: 5 });
  assert.equal(summary.sumError, 'isError');
  assert.equal(summary.resource, 'hello');
  assert.match(summary.prompt ?? '', /Ada/);
  assert.equal(summary.stderr, '', 'the client wrote nothing on stderr');
}

/**
 * Runs the suite's checks as subtests of `t` against the fixture at `url`. Each check is
 * its own subtest, so a failure names what failed on which runtime.
 */
export async function runRuntimeSuite(t: TestContext, options: RuntimeSuiteOptions): Promise<void> {
  const { url, runtime, runClients, serverStderr } = options;
  for (const era of ERAS) {
    await t.test(`mcpkit client, ${era} era, against ${runtime}`, () => checkMcpkitClient(url, era));
  }
  await t.test(`the official SDK client against ${runtime}`, () => checkSdkClient(url));
  if (runClients) {
    // One process runs both eras (a runtime's start-up is most of its cost); each is checked apart.
    const summaries = runClients({ url, eras: ERAS });
    for (const [i, era] of ERAS.entries()) {
      await t.test(`mcpkit client running on ${runtime}, ${era} era`, async () =>
        checkClientSummary((await summaries)[i]!, era),
      );
    }
  }
  if (serverStderr) {
    await t.test(`the server on ${runtime} wrote nothing on stderr`, () => {
      assert.equal(serverStderr(), '');
    });
  }
}

/** The repository's root, from src/test-support or dist/test-support alike. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The ```ts block of a Markdown page whose first line is `// <name>`, as pasted. */
export function pageBlock(page: string, name: string): string {
  const text = readFileSync(join(ROOT, page), 'utf8');
  for (const [, code] of text.matchAll(/^```ts\n([\s\S]*?)^```$/gm))
    if (code?.split('\n')[0]?.trim() === `// ${name}`) return code;
  throw new Error(`${page} has no \`\`\`ts block starting with "// ${name}"`);
}

/**
 * The deploy page's server, as pasted, served the way the page says: mcpkit's client lists
 * and calls its `forecast` tool in both eras. It runs from a folder inside the repository,
 * where `mcpkit/...` resolves to this package as it does in the reader's project.
 */
async function checkRecipe(launcher: RuntimeLauncher): Promise<void> {
  const page = launcher.recipe!;
  mkdirSync(join(ROOT, '.cache'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, '.cache', `recipe-${launcher.name}-`));
  try {
    const file = join(dir, 'server.ts');
    writeFileSync(file, pageBlock(page, 'server.ts'));
    await using server = await launcher.startRecipe!({ file, cwd: dir });
    for (const era of ERAS) {
      const client = new Client({ name: 'recipe-check', version: '1.0.0' }, { era, timeoutMs: 10_000 });
      await client.connect(new StreamableHttpClientTransport({ url: server.url }));
      try {
        assert.equal(client.era, era);
        assert.deepEqual(
          (await client.listTools()).tools.map((tool) => tool.name),
          ['forecast'],
        );
        const result = await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
        assert.equal(textOf(result), 'Sunny in Oslo');
        assert.equal((await client.callTool({ name: 'forecast', arguments: {} })).isError, true);
      } finally {
        await client.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** test/runtimes/launchers.mjs, from src/test-support or dist/test-support alike. */
async function loadLaunchers(): Promise<Record<string, RuntimeLauncher>> {
  const url = new URL('../../test/runtimes/launchers.mjs', import.meta.url).href;
  const mod = (await import(url)) as { launchers: Record<string, RuntimeLauncher> };
  return mod.launchers;
}

/**
 * A whole runtime test file: installs the runtime if needed (scripts/runtimes.mjs), starts
 * the server fixture on it and runs the suite. A runtime that cannot be installed (no
 * registry, unsupported platform) skips with the reason, or fails under
 * MCPKIT_REQUIRE_SERVICES=1 (CI), where nothing may skip unnoticed.
 */
export async function runtimeTests(name: string): Promise<void> {
  const launcher = (await loadLaunchers())[name];
  if (!launcher) throw new Error(`No launcher for runtime "${name}" in test/runtimes/launchers.mjs`);
  let unavailable: string | false = false;
  try {
    launcher.binary();
  } catch (err) {
    if (process.env.MCPKIT_REQUIRE_SERVICES === '1') throw err;
    unavailable = `needs ${launcher.label}: ${(err as Error).message.split('\n')[0]}`;
  }
  test(`the MCP server and client on ${launcher.label}`, { skip: unavailable }, async (t) => {
    await using server = await launcher.start({ port: 0 });
    const runClients = launcher.runClients?.bind(launcher);
    await runRuntimeSuite(t, {
      url: server.url,
      runtime: launcher.label,
      serverStderr: () => server.stderr(),
      ...(runClients ? { runClients } : {}),
    });
  });
  if (launcher.recipe !== undefined) {
    test(`${launcher.recipe}: its server, as pasted, on ${launcher.label}`, { skip: unavailable }, () =>
      checkRecipe(launcher),
    );
  }
}
