// The runtime fixture as a Cloudflare Worker: the McpServer is built once, at module scope
// (constructing it starts no timer and draws no randomness, as Workers require), and served
// with fetchHandler. Bundled by workerd-launcher.mjs with the workerd/worker/browser
// conditions and run by `workerd serve` without nodejs_compat.
//
// Legacy sessions (2025-03-26 to 2025-11-25, Mcp-Session-Id) need state shared between the
// isolates that serve one Worker: the Durable Object store keeps them, so the handler that
// uses it is made on the first request, when `env` (the binding) is known.
import { fetchHandler } from 'mcpkit/http-server';
import {
  connectDurableObjectStores,
  DurableObjectSessionStore,
  McpSessionObject,
} from 'mcpkit/durable-object';
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
/** The handler once made: later requests call it with no await in between. */
let ready;

function handlerFor(env) {
  if (!server) throw new Error(`the server could not be built at module scope: ${moduleScope}`);
  return (handler ??= connectDurableObjectStores(env.MCP_SESSIONS).then(
    (stores) => (ready = fetchHandler(server, { stores }).fetch),
  ));
}

export default {
  /** @param {Request} request @param {{ MCP_SESSIONS: unknown }} env @param {{ waitUntil(p: Promise<unknown>): void }} ctx */
  async fetch(request, env, ctx) {
    if (request.url.endsWith('/module-scope')) return new Response(moduleScope);
    if (request.url.endsWith('/lease-check')) return leaseCheck(env);
    if (ready) return ready(request, env, ctx);
    const fetch = await handlerFor(env);
    return fetch(request, env, ctx);
  },
};

/**
 * /lease-check: the copy leases of the Durable Object session store, on a real object. A
 * touch with a lease records it; `holders` lists it to every other isolate (and the time
 * left), not to its own; after the session is deleted the lease is still listed (its isolate
 * must still be told of the end) while the session is gone.
 */
async function leaseCheck(env) {
  const store = new DurableObjectSessionStore(env.MCP_SESSIONS);
  const id = `lease-check-${crypto.randomUUID()}`;
  const limits = { idleMs: 60_000, maxSessions: 10 };
  const created = await store.create(id, 'p', '{"jsonrpc":"2.0","id":0,"method":"initialize"}', limits);
  await store.touch(id, 0, limits, { node: 'isolate-a', ms: 1000 });
  const plain = await store.touch(id, 1, limits);
  const forB = await store.holders(id, 'isolate-b');
  const forA = await store.holders(id, 'isolate-a');
  await store.delete(id);
  const afterDelete = await store.holders(id, 'isolate-b');
  const touchAfterDelete = (await store.touch(id, 0, limits)) ?? null;
  return Response.json({ created, plain, forB, forA, afterDelete, touchAfterDelete });
}
