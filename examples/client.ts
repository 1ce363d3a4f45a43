/**
 * A client: starts a server as a child process over stdio, lists its tools, calls one,
 * and answers the questions the server asks — from the terminal when there is one, with
 * the form's defaults otherwise. The same handler answers in both eras.
 *
 * Run: `npm run build && npx tsx examples/client.ts [--era auto|legacy|modern]`.
 * It starts examples/mrtr-tool.ts and books a table.
 */
import { createInterface } from 'node:readline/promises';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from 'mcpkit';
import type { ElicitationHandler, EraPreference } from 'mcpkit/client';
import { StdioClientTransport } from 'mcpkit/stdio';

const { values } = parseArgs({ options: { era: { type: 'string', default: 'auto' } } });
const era = values.era as EraPreference;

/** Asks each field of a form on the terminal; Enter keeps the default. */
const askUser: ElicitationHandler = async (request, { signal }) => {
  if (request.mode === 'url') return { action: 'decline' };
  const fields = Object.entries(request.requestedSchema.properties);
  const content: Record<string, string | number | boolean> = {};
  if (!process.stdin.isTTY) {
    // Not interactive: accept with the defaults (the client fills them in after accept).
    console.log(`? ${request.message} (accepting the defaults)`);
    return { action: 'accept', content };
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    console.log(`? ${request.message}`);
    for (const [name, field] of fields) {
      const shown = 'default' in field && field.default !== undefined ? ` [${String(field.default)}]` : '';
      const answer = (await rl.question(`  ${field.title ?? name}${shown}: `, { signal })).trim();
      if (answer === '') continue;
      content[name] =
        field.type === 'integer' || field.type === 'number'
          ? Number(answer)
          : field.type === 'boolean'
            ? /^(y|yes|true)$/i.test(answer)
            : answer;
    }
    return { action: 'accept', content };
  } finally {
    rl.close();
  }
};

const client = new Client(
  { name: 'example-client', version: '1.0.0' },
  { era, handlers: { elicitation: askUser } },
);

// The server next to this file, run the way this file runs (tsx, type stripping, or compiled).
const server = fileURLToPath(
  new URL(`./mrtr-tool${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
);
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [...process.execArgv, server],
    stderr: 'ignore',
  }),
);
console.log(
  `Connected to ${client.serverInfo?.name} over protocol ${client.protocolVersion} (${client.era} era)`,
);

for await (const tool of client.tools()) console.log(`- ${tool.name}: ${tool.description ?? ''}`);

const result = await client.callTool({ name: 'book_table', arguments: { restaurant: 'Chez Ada' } });
for (const block of result.content) if (block.type === 'text') console.log(block.text);

await client.close();
