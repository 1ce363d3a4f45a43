// The notes server of `mcpkit demo`, through a real Client in both eras: what the demo shows
// (structured search, progress, a confirmed delete, a task, an app view) works as it says.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Client } from '../client/client.js';
import type { Era } from '../protocol/versions.js';
import { memoryPair } from '../transports/memory/index.js';
import { NOTES_BOARD_URI, createNotesServer } from './notes-server.js';

async function connect(era: Era, confirm: boolean): Promise<{ client: Client; asked: string[] }> {
  const asked: string[] = [];
  const [a, b] = memoryPair();
  await createNotesServer({ stepMs: 1 }).connect(b);
  const client = new Client(
    { name: 'notes-test', version: '1' },
    {
      era,
      handlers: {
        elicitation: (request) => {
          asked.push(request.message);
          return { action: 'accept', content: { confirm } };
        },
      },
    },
  );
  await client.connect(a);
  return { client, asked };
}

for (const era of ['legacy', 'modern'] as const) {
  describe(`the demo's notes server (${era} era)`, () => {
    test('its tools, each with an input schema, and no conformance fixture among them', async () => {
      const { client } = await connect(era, true);
      const tools = (await client.listTools()).tools;
      assert.deepEqual(
        tools.map((t) => t.name),
        ['search_notes', 'add_note', 'import_notes', 'delete_note', 'weekly_digest', 'show_board'],
      );
      for (const t of tools) assert.equal(t.inputSchema.type, 'object', t.name);
      await client.close();
    });

    test('search answers text and structured content; add_note is found afterwards', async () => {
      const { client } = await connect(era, true);
      const found = await client.callTool({ name: 'search_notes', arguments: { query: 'lima' } });
      assert.deepEqual(found.content, [{ type: 'text', text: 'n2: Trip to Lima' }]);
      assert.equal((found.structuredContent as { notes: unknown[] }).notes.length, 1);
      await client.callTool({
        name: 'add_note',
        arguments: { title: 'Lima hotels', text: 'Ask Ana', tags: ['travel'] },
      });
      const again = await client.callTool({
        name: 'search_notes',
        arguments: { query: 'lima', tag: 'travel' },
      });
      assert.deepEqual(again.content, [{ type: 'text', text: 'n2: Trip to Lima\nn4: Lima hotels' }]);
      await client.close();
    });

    test('import_notes reports progress for each note', async () => {
      const { client } = await connect(era, true);
      const seen: string[] = [];
      const r = await client.callTool(
        { name: 'import_notes', arguments: { count: 2 } },
        { onprogress: (p) => seen.push(`${p.progress}/${p.total} ${p.message}`) },
      );
      assert.deepEqual(r.content, [{ type: 'text', text: 'Imported 2 notes.' }]);
      assert.deepEqual(seen, ['1/2 imported "Book club"', '2/2 imported "Standup"']);
      await client.close();
    });

    test('delete_note asks the user first, and keeps the note when the user does not confirm', async () => {
      const kept = await connect(era, false);
      const no = await kept.client.callTool({ name: 'delete_note', arguments: { id: 'n1' } });
      assert.deepEqual(no.content, [{ type: 'text', text: 'Kept "Groceries".' }]);
      assert.deepEqual(kept.asked, ['Delete "Groceries"? It cannot be undone.']);
      await kept.client.close();
      const gone = await connect(era, true);
      const yes = await gone.client.callTool({ name: 'delete_note', arguments: { id: 'n1' } });
      assert.deepEqual(yes.content, [{ type: 'text', text: 'Deleted "Groceries".' }]);
      const none = await gone.client.callTool({ name: 'search_notes', arguments: { query: 'groceries' } });
      assert.deepEqual(none.content, [{ type: 'text', text: 'No note matches.' }]);
      await gone.client.close();
    });

    test('weekly_digest runs as a task with a status per tag', async () => {
      const { client } = await connect(era, true);
      const statuses: string[] = [];
      const r = await client.callTool(
        { name: 'weekly_digest', arguments: {} },
        { task: true, onTaskStatus: (t) => statuses.push(t.status) },
      );
      assert.match(
        (r.content[0] as { text: string }).text,
        /^Digest of 3 notes\n#home: Groceries\n#travel: Trip to Lima\n#work: Release 0\.2$/,
      );
      assert.equal(statuses.at(-1), 'completed', statuses.join());
      await client.close();
    });

    test('show_board is an app: its tool names the view, which reads as an MCP App document', async () => {
      const { client } = await connect(era, true);
      const tool = (await client.listTools()).tools.find((t) => t.name === 'show_board')!;
      assert.equal((tool._meta?.ui as { resourceUri?: string }).resourceUri, NOTES_BOARD_URI);
      const view = await client.readResource({ uri: NOTES_BOARD_URI });
      const content = view.contents[0] as { mimeType: string; text: string };
      assert.equal(content.mimeType, 'text/html;profile=mcp-app');
      assert.match(content.text, /ui\/initialize/);
      await client.close();
    });
  });
}
