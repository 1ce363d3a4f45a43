#!/usr/bin/env node
/**
 * Runs the demo "everything" server on stdio: `node dist/demo/everything-stdio.js`.
 *
 * stdout carries MCP messages only; the one startup line goes to stderr. The process exits
 * by itself once stdin ends and every request in flight has been answered.
 *
 * Environment:
 * - `MCPKIT_MAX_MESSAGE_BYTES`: largest accepted line (default 16 MiB).
 * - `MCPKIT_DEMO_STEP_MS`: pause between the steps of the slow tools (default 50 ms).
 * - `MCPKIT_PAGE_SIZE`: items per page of every list (default: the server's, 1,000).
 */
import { StdioServerTransport } from '../transports/stdio/index.js';
import { createEverythingServer } from './everything-server.js';

/** A positive integer from the environment, or undefined when unset or invalid. */
function positiveInt(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (Number.isSafeInteger(n) && n > 0) return n;
  console.error(`[mcpkit] ignoring ${name}=${JSON.stringify(raw)}: not a positive integer`);
  return undefined;
}

const maxMessageBytes = positiveInt('MCPKIT_MAX_MESSAGE_BYTES');
const stepMs = positiveInt('MCPKIT_DEMO_STEP_MS');
const pageSize = positiveInt('MCPKIT_PAGE_SIZE');

const server = createEverythingServer({
  ...(stepMs === undefined ? {} : { stepMs }),
  ...(pageSize === undefined ? {} : { pageSize }),
});
await server.connect(new StdioServerTransport(maxMessageBytes === undefined ? {} : { maxMessageBytes }));
console.error(`[mcpkit] ${server.info.name} ${server.info.version} ready on stdio`);

// A signal ends subscriptions gracefully and closes the connection before exiting.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().finally(() => process.exit(0));
  });
}
