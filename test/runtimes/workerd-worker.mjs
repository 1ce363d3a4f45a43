// The runtime fixture as a Cloudflare Worker: the McpServer is built once, at module scope
// (constructing it starts no timer and draws no randomness, as Workers require), and served
// with fetchHandler. Bundled by workerd-launcher.mjs with the workerd/worker/browser
// conditions and run by `workerd serve` without nodejs_compat.
//
// Legacy sessions (2025-03-26 to 2025-11-25, Mcp-Session-Id) need state shared between the
// isolates that serve one Worker: the Durable Object store keeps them, so the handler that
// uses it is made on the first request, when `env` (the binding) is known.
import { fetchHandler } from 'mcpkit/http-server';
import { connectDurableObjectStores, McpSessionObject } from 'mcpkit/durable-object';
import { buildServer } from './server-fixture.mjs';

export { McpSessionObject };

// At module scope, as it should be: if the constructor drew random bytes or started a timer,
// workerd would refuse to load the Worker, and /module-scope reports what it threw.
let server;
let moduleScope = 'ok';
try {
  server = buildServer();
  // A task tool (2025-11-25 tasks): its record lives in the Durable Object task store.
  server.tool(
    { name: 'echo_task', execution: { taskSupport: 'optional' } },
    (args) => `task says ${String(args.text)}`,
  );
} catch (err) {
  moduleScope = String(err?.message ?? err);
}

/** @type {Promise<(request: Request) => Promise<Response>> | undefined} */
let handler;

function handlerFor(env) {
  if (!server) throw new Error(`the server could not be built at module scope: ${moduleScope}`);
  return (handler ??= connectDurableObjectStores(env.MCP_SESSIONS).then(
    (stores) => fetchHandler(server, { stores }).fetch,
  ));
}

export default {
  /** @param {Request} request @param {{ MCP_SESSIONS: unknown }} env @param {{ waitUntil(p: Promise<unknown>): void }} ctx */
  async fetch(request, env, ctx) {
    if (new URL(request.url).pathname === '/module-scope') return new Response(moduleScope);
    const fetch = await handlerFor(env);
    return fetch(request, env, ctx);
  },
};
