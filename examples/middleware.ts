/**
 * Middleware: an onion of layers around every request the server's handlers serve (lists,
 * calls, reads, prompts, completion). The first `use()` is the outermost layer. Each layer
 * sees `method`, and checking it narrows `params` to that method's params.
 *
 * Here, outside in: logging, timing, a rate limit on tool calls, and an auth check for
 * the tools that change something. Run: `npm run build && NOTES_API_KEY=s3cret npx tsx
 * examples/middleware.ts`, and send `_meta: { "example.com/apiKey": "s3cret" }` with
 * calls to `delete_note`.
 */
import { McpServer, WireError, toolError } from 'mcpkit';
import type { Middleware } from 'mcpkit';
import { StdioServerTransport } from 'mcpkit/stdio';
import { z } from 'zod';

const API_KEY = process.env.NOTES_API_KEY ?? '';
const PROTECTED_TOOLS = new Set(['delete_note']);

/** Logs every request and how it ended, on stderr (stdout carries MCP messages). */
const logging: Middleware = async ({ method, params }, next) => {
  const what =
    method === 'tools/call' || method === 'prompts/get' ? `${method} ${String(params.name)}` : method;
  try {
    const result = await next();
    console.error(`[notes] ${what}: ok`);
    return result;
  } catch (e) {
    console.error(`[notes] ${what}: ${(e as Error).message}`);
    throw e;
  }
};

/** Measures each request, inner layers and handler included. */
const timing: Middleware = async ({ method, ctx }, next) => {
  const started = performance.now();
  try {
    return await next();
  } finally {
    console.error(
      `[notes] ${method} #${String(ctx.requestId)} took ${(performance.now() - started).toFixed(1)} ms`,
    );
  }
};

/** At most `limit` tool calls per client per `windowMs`; over the limit, a tool error the model can read. */
function rateLimit(limit: number, windowMs: number): Middleware {
  const calls = new Map<string, number[]>();
  return (request, next) => {
    if (request.method !== 'tools/call') return next();
    const who = request.ctx.client.info?.name ?? 'anonymous';
    const now = Date.now();
    const recent = (calls.get(who) ?? []).filter((t) => now - t < windowMs);
    if (recent.length >= limit) {
      return toolError(
        `Rate limit: at most ${limit} tool calls every ${windowMs / 1000} s; try again shortly`,
      );
    }
    calls.set(who, [...recent, now]);
    return next();
  };
}

/** Protected tools need the API key in `_meta` (or an HTTP auth layer's verified caller). */
const auth: Middleware = (request, next) => {
  if (request.method === 'tools/call' && PROTECTED_TOOLS.has(request.params.name ?? '')) {
    const key = request.params._meta?.['example.com/apiKey'];
    if (!request.ctx.authInfo && (API_KEY === '' || key !== API_KEY)) {
      throw new WireError(-32001, `Tool ${request.params.name} needs an API key`);
    }
  }
  return next();
};

const notes = new Map<string, string>([['welcome', 'Hello from the notes server']]);
const server = new McpServer({ name: 'notes', version: '1.0.0' });
server.use(logging).use(timing).use(rateLimit(10, 60_000)).use(auth);

server.tool(
  {
    name: 'add_note',
    description: 'Adds or replaces a note',
    input: z.object({ id: z.string(), text: z.string() }),
  },
  ({ id, text }) => {
    notes.set(id, text);
    return `Saved ${id}`;
  },
);
server.tool(
  {
    name: 'delete_note',
    description: 'Deletes a note (needs the API key)',
    input: z.object({ id: z.string() }),
  },
  ({ id }) => (notes.delete(id) ? `Deleted ${id}` : toolError(`No note ${id}`)),
);
server.resourceTemplate(
  {
    uriTemplate: 'notes://{id}',
    name: 'Note',
    mimeType: 'text/plain',
    complete: { id: (v) => [...notes.keys()].filter((k) => k.startsWith(v)) },
  },
  (uri, { id }) => {
    const text = notes.get(String(id));
    if (text === undefined) throw WireError.invalidParams(`No note ${String(id)}`);
    return [{ uri, mimeType: 'text/plain', text }];
  },
);

await server.connect(new StdioServerTransport());
console.error('notes server ready on stdio');
