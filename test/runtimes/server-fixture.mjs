// The MCP server every runtime test runs (Node 20/22/24, Bun, Deno, and workerd through
// workerd-worker.mjs), written against the package's public entries so that each runtime
// resolves them through package.json's exports, conditions included.
//
// `buildServer()` returns a fresh McpServer. Run as a script, this file serves it on the
// runtime's own HTTP server (Node: `serve()`; Bun: `Bun.serve`; Deno: `Deno.serve`, both
// with `fetchHandler`) at http://127.0.0.1:<port>/mcp, both eras, and prints exactly
// one line `listening http://127.0.0.1:<port>/mcp` on stdout once it accepts connections.
// Options: `--port N` (0, the default, picks a free port).
//
// No top-level `node:` imports: the workerd bundle imports buildServer from here.
import { McpServer } from 'mcpkit';

/**
 * A Standard Schema written by hand (no validation library, so every runtime and bundle
 * loads the same code): `{ text: string }`.
 */
const echoInput = {
  '~standard': {
    version: 1,
    vendor: 'mcpkit-runtime-fixture',
    validate(value) {
      if (typeof value === 'object' && value !== null && typeof value.text === 'string')
        return { value: { text: value.text } };
      return { issues: [{ message: 'text: expected a string', path: ['text'] }] };
    },
  },
};

/** The server the runtime suite checks: see src/test-support/runtime-suite.ts. */
export function buildServer() {
  const server = new McpServer({ name: 'runtime-fixture', version: '1.0.0' });

  server.tool(
    {
      name: 'echo',
      description: 'Returns its text',
      input: echoInput,
      inputJsonSchema: {
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
      },
    },
    ({ text }) => text,
  );

  server.tool(
    {
      name: 'sum',
      description: 'Adds two numbers',
      input: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
        additionalProperties: false,
      },
      output: {
        type: 'object',
        properties: { sum: { type: 'number' } },
        required: ['sum'],
      },
    },
    ({ a, b }) => {
      const sum = Number(a) + Number(b);
      return { content: [{ type: 'text', text: String(sum) }], structuredContent: { sum } };
    },
  );

  server.tool(
    {
      name: 'add_tool',
      description: 'Registers a new tool of the given name (announced with tools/list_changed)',
      input: {
        type: 'object',
        properties: { name: { type: 'string', minLength: 1 } },
        required: ['name'],
      },
    },
    ({ name }) => {
      const added = String(name);
      server.tool({ name: added, description: `Added at run time` }, () => `I am ${added}`);
      return `added ${added}`;
    },
  );

  server.resource({ uri: 'test://hello', name: 'Hello', mimeType: 'text/plain' }, (uri) => [
    { uri, mimeType: 'text/plain', text: 'hello' },
  ]);

  server.prompt(
    { name: 'greet', description: 'Greets someone', arguments: [{ name: 'name', required: true }] },
    ({ name = '' }) => [{ role: 'user', content: { type: 'text', text: `Say hello to ${name}.` } }],
  );

  return server;
}

/** `--port N` from the command line, in any runtime. */
function portArgument() {
  const args = globalThis.Deno?.args ?? globalThis.process?.argv?.slice(2) ?? [];
  const i = args.indexOf('--port');
  const port = i >= 0 ? Number(args[i + 1]) : 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`bad --port ${args[i + 1]}`);
  return port;
}

/** Serves buildServer() on this runtime's HTTP server; resolves to the endpoint's URL. */
export async function serveFixture(port = 0) {
  const server = buildServer();
  const hostname = '127.0.0.1';
  if (globalThis.Bun) {
    const { fetchHandler } = await import('mcpkit/http-server');
    const { fetch } = fetchHandler(server);
    const running = globalThis.Bun.serve({ hostname, port, fetch, idleTimeout: 0 });
    return `http://${hostname}:${running.port}/mcp`;
  }
  if (globalThis.Deno) {
    const { fetchHandler } = await import('mcpkit/http-server');
    const { fetch } = fetchHandler(server);
    return await new Promise((resolve) => {
      globalThis.Deno.serve(
        { hostname, port, onListen: ({ port: bound }) => resolve(`http://${hostname}:${bound}/mcp`) },
        fetch,
      );
    });
  }
  const { serve } = await import('mcpkit/http-server');
  const running = await serve(server, { host: hostname, port });
  return running.url;
}

const isMain =
  import.meta.main ??
  (import.meta.filename !== undefined && globalThis.process?.argv?.[1] === import.meta.filename);
if (isMain) {
  const url = await serveFixture(portArgument());
  console.log(`listening ${url}`);
}
