/**
 * A tool that asks the user, written once for both protocol eras. `ctx.elicit()` becomes
 * an `elicitation/create` request to the client on a legacy (2025-11-25) connection, and
 * an `input_required` result that the client answers by retrying the call on a modern
 * (2026-07-28) one — the handler does not change.
 *
 * In the modern era the handler re-runs from the top on each retry, and the answers it
 * already has come back at once. So: no side effects before the last question.
 *
 * Run: `npm run build && npx tsx examples/mrtr-tool.ts` (stdio), or drive it with
 * `npx tsx examples/client.ts`, which starts it and answers its questions.
 */
import { McpServer, toolError } from 'mcpkit';
import { StdioServerTransport } from 'mcpkit/stdio';
import { z } from 'zod';

const bookings: string[] = [];

const server = new McpServer({ name: 'restaurant', version: '1.0.0' });

server.tool(
  {
    name: 'book_table',
    description: 'Books a table; asks the user for the party size and time, then to confirm',
    input: z.object({ restaurant: z.string().min(1) }),
  },
  async ({ restaurant }, ctx) => {
    // Question 1: a form.
    const details = await ctx.elicit({
      message: `Booking at ${restaurant}: how many people, and when?`,
      requestedSchema: {
        type: 'object',
        properties: {
          people: { type: 'integer', title: 'People', minimum: 1, maximum: 12, default: 2 },
          time: { type: 'string', title: 'Time', enum: ['18:00', '19:30', '21:00'], default: '19:30' },
        },
        required: ['people', 'time'],
      },
    });
    if (details.action !== 'accept' || !details.content)
      return toolError(`Booking ${details.action}ed by the user`);
    const people = Number(details.content.people);
    const time = String(details.content.time);

    // Question 2 depends on the first answer.
    const confirm = await ctx.elicit({
      message: `Book ${restaurant} for ${people} at ${time}?`,
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', default: true } },
        required: ['confirm'],
      },
    });
    if (confirm.action !== 'accept' || confirm.content?.confirm !== true) return 'No booking made';

    // The side effect comes after the last question, so it happens once.
    bookings.push(`${restaurant} ${time} x${people}`);
    return `Booked ${restaurant} for ${people} at ${time} (asked over the ${ctx.era} era; booking #${bookings.length})`;
  },
);

await server.connect(new StdioServerTransport());
console.error('restaurant server ready on stdio');
