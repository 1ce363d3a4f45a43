import type { JsonSchemaObject, McpServer, ServerContext } from '../server/index.js';
import type { ElicitResult } from '../protocol/types/elicitation.js';
import type { CreateMessageResult } from '../protocol/types/sampling.js';

/** A raw JSON Schema for an object with these properties. */
export const objectSchema = (
  properties: Record<string, unknown> = {},
  required: string[] = [],
): JsonSchemaObject =>
  required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };

/** Waits, but gives up at once when the request is cancelled. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const abort = (): void => {
      clearTimeout(timer);
      const why: unknown = signal.reason;
      reject(why instanceof Error ? why : new Error(typeof why === 'string' ? why : 'Cancelled'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    }, ms);
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  });
}

/** How the elicitation tools report the answer. */
export function describeElicitation(prefix: string, r: ElicitResult): string {
  return `${prefix}: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`;
}

/** The text of a sampling result, whatever shape its content has. */
export function sampledText(r: CreateMessageResult): string {
  const blocks = Array.isArray(r.content) ? r.content : [r.content];
  return blocks.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('');
}

/**
 * Tools beyond what the conformance suite calls, for a good interactive demo: `add` with
 * structured output, `echo`, a cancellable `slow_count` with progress, `plan_trip` (two
 * questions, so two input_required rounds in the modern era) and `list_roots`.
 */
export function registerEverythingExtras(server: McpServer, stepMs: number): void {
  server.tool(
    {
      name: 'add',
      title: 'Add two numbers',
      description: 'Adds two numbers and returns the sum as structured content',
      input: objectSchema({ a: { type: 'number' }, b: { type: 'number' } }, ['a', 'b']),
      output: objectSchema({ sum: { type: 'number' } }, ['sum']),
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
    (args) => {
      const sum = Number(args.a) + Number(args.b);
      return { content: [{ type: 'text', text: String(sum) }], structuredContent: { sum } };
    },
  );

  server.tool(
    {
      name: 'echo',
      description: 'Echoes its text back',
      input: objectSchema({ text: { type: 'string' } }, ['text']),
      annotations: { readOnlyHint: true },
    },
    (args) => String(args.text),
  );

  server.tool(
    {
      name: 'slow_count',
      description: 'Counts to n, one step at a time, reporting progress; cancel it any time',
      input: objectSchema({ n: { type: 'integer', minimum: 1, maximum: 1000 } }, ['n']),
    },
    async (args, ctx: ServerContext) => {
      const n = Number(args.n);
      for (let i = 1; i <= n; i++) {
        await pause(stepMs, ctx.signal);
        ctx.progress(i, n, `Counted ${i} of ${n}`);
      }
      return `Counted to ${n}`;
    },
  );

  server.tool(
    {
      name: 'plan_trip',
      description: 'Asks the user how long to stay, then asks the LLM for an itinerary',
      input: objectSchema({ destination: { type: 'string' } }, ['destination']),
    },
    async (args, ctx) => {
      // Two questions in a row: two input_required rounds in the modern era. Nothing
      // before a question has side effects, because the handler re-runs each round.
      const destination = String(args.destination);
      const stay = await ctx.elicit({
        message: `How many days do you want to spend in ${destination}?`,
        requestedSchema: {
          type: 'object',
          properties: { days: { type: 'integer', minimum: 1, maximum: 14, default: 3 } },
          required: ['days'],
        },
      });
      if (stay.action !== 'accept') return `Trip planning ${stay.action}ed`;
      const days = Number(stay.content?.days ?? 3);
      const plan = await ctx.sample({
        messages: [
          {
            role: 'user',
            content: { type: 'text', text: `Plan a ${days}-day trip to ${destination}.` },
          },
        ],
        maxTokens: 200,
      });
      return `${days} days in ${destination}: ${sampledText(plan)}`;
    },
  );

  server.tool(
    { name: 'list_roots', description: "Lists the client's roots", input: objectSchema() },
    async (_args, ctx) => {
      const { roots } = await ctx.listRoots();
      if (roots.length === 0) return 'The client has no roots';
      return roots.map((r) => (r.name ? `${r.name}: ${r.uri}` : r.uri)).join('\n');
    },
  );
}
