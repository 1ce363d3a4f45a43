import type { Registration } from '../server/index.js';
import type { RawJsonSchema } from '../server/schema-adapter.js';
import type { McpServer } from '../server/server.js';
import type { ServerContext } from '../server/server-context.js';
import type { ElicitResult } from '../protocol/types/elicitation.js';
import type { CreateMessageResult, SamplingMessage } from '../protocol/types/sampling.js';
import type { Tool } from '../protocol/types/tools.js';

/** A raw JSON Schema for an object with these properties. */
export const objectSchema = (
  properties: Record<string, unknown> = {},
  required: string[] = [],
): RawJsonSchema =>
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

/** The tool `weather_agent` offers the client's LLM. */
const GET_WEATHER: Tool = {
  name: 'get_weather',
  description: 'The weather in a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/**
 * Tools beyond what the conformance suite calls, for a good interactive demo: `add` with
 * structured output, `echo`, a cancellable `slow_count` with progress, `plan_trip` (two
 * questions, so two input_required rounds in the modern era), `list_roots`,
 * `weather_agent` (sampling with tools) and `toggle_bonus_tool` (tools/list_changed).
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
      name: 'test_reconnection',
      description:
        'Closes its own response stream mid-call (SSE polling); the answer arrives after the client resumes with Last-Event-ID',
      input: objectSchema(),
    },
    async (_args, ctx: ServerContext) => {
      await pause(stepMs, ctx.signal);
      // On legacy Streamable HTTP this drops the connection, not the request.
      ctx.closeStream();
      await pause(stepMs * 2, ctx.signal);
      return 'Reconnection test completed successfully';
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

  server.tool(
    {
      name: 'weather_agent',
      description:
        "Asks the client's LLM a question, offering it a get_weather tool; runs the tool when " +
        'the model calls it and asks again with the result (sampling with tools)',
      input: objectSchema({ question: { type: 'string' } }, ['question']),
    },
    async (args, ctx) => {
      const messages: SamplingMessage[] = [
        { role: 'user', content: { type: 'text', text: String(args.question) } },
      ];
      const ask = () =>
        ctx.sample({ messages, tools: [GET_WEATHER], toolChoice: { mode: 'auto' }, maxTokens: 200 });
      let answer = await ask();
      for (let turn = 0; turn < 3; turn++) {
        const blocks = Array.isArray(answer.content) ? answer.content : [answer.content];
        const uses = blocks.filter((b) => b.type === 'tool_use');
        if (uses.length === 0) break;
        messages.push({ role: 'assistant', content: blocks });
        messages.push({
          role: 'user',
          content: uses.map((u) => ({
            type: 'tool_result' as const,
            toolUseId: u.id,
            content: [{ type: 'text' as const, text: `Sunny and 21°C in ${String(u.input.city)}` }],
          })),
        });
        answer = await ask();
      }
      return `The model says: ${sampledText(answer)}`;
    },
  );

  // Adds or removes `bonus_tool`; connections that asked hear tools/list_changed.
  let bonus: Registration | undefined;
  server.tool(
    {
      name: 'toggle_bonus_tool',
      description: 'Adds bonus_tool when it is missing, removes it when it is there',
      input: objectSchema(),
    },
    () => {
      if (bonus) {
        bonus.remove();
        bonus = undefined;
        return 'bonus_tool removed';
      }
      bonus = server.tool(
        { name: 'bonus_tool', description: 'A tool that comes and goes', input: objectSchema() },
        () => 'You found the bonus tool',
      );
      return 'bonus_tool added';
    },
  );
}
