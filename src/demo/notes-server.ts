/**
 * The server `mcpkit demo` (`npm start`) shows: a small notes service written the way an
 * application would write one, unlike the conformance "everything" server of
 * `mcpkit demo-server`. Tools with schemas and structured output, one reporting progress,
 * one asking the user before it deletes, one that runs as a task, an MCP App view, a
 * resource, a template with completion and a prompt. JSON Schema keeps the package free of
 * a schema library; an application would as well write the inputs with zod.
 */
import { registerApp } from '../server/index.js';
import { McpServer } from '../server/server.js';
import type { ServerOptions } from '../server/server.js';
import { pause } from './everything-extras.js';

/** A note. */
export interface Note {
  id: string;
  title: string;
  text: string;
  tags: string[];
}

export interface NotesServerOptions extends ServerOptions {
  /** The pause between the steps of the slow tools, in ms (default 150). */
  stepMs?: number;
}

/** The board view's `ui://` URI. */
export const NOTES_BOARD_URI = 'ui://notes/board.html';

const SEED: Note[] = [
  { id: 'n1', title: 'Groceries', text: 'Oat milk, lemons, rye bread.', tags: ['home'] },
  {
    id: 'n2',
    title: 'Trip to Lima',
    text: 'Book the flight before Friday; ask Ana about hotels.',
    tags: ['travel'],
  },
  { id: 'n3', title: 'Release 0.2', text: 'Changelog, tag, publish from CI.', tags: ['work'] },
];

/** Notes that `import_notes` brings in, as if from another app. */
const IMPORTS: Array<Omit<Note, 'id'>> = [
  { title: 'Book club', text: 'Read chapters 4 to 6 of "The Dispossessed".', tags: ['home'] },
  { title: 'Standup', text: 'Demo the new importer.', tags: ['work'] },
  { title: 'Gift ideas', text: 'A kite for Tom, a teapot for Mia.', tags: ['home'] },
  { title: 'Passport', text: 'Renew before the trip.', tags: ['travel'] },
  { title: 'Retro', text: 'What slowed the release down?', tags: ['work'] },
];

const BOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Notes</title>
<style>
  :root { color-scheme: light dark; font-family: var(--font-sans, system-ui, sans-serif); }
  body { margin: 0; padding: 12px; }
  ul { list-style: none; padding: 0; margin: 0; display: grid; gap: 8px; }
  li { border: 1px solid #8884; border-radius: 6px; padding: 8px; }
  .tag { font-size: .8em; opacity: .7; margin-right: 6px; }
</style>
</head>
<body>
<ul id="notes" data-testid="notes"><li>Loading…</li></ul>
<script>
(() => {
  let nextId = 1;
  const host = window.parent;
  const send = (m) => host.postMessage(m, '*');
  const render = (result) => {
    const notes = (result && result.structuredContent && result.structuredContent.notes) || [];
    const list = document.getElementById('notes');
    list.replaceChildren(...notes.map((n) => {
      const li = document.createElement('li');
      const title = document.createElement('strong');
      title.textContent = n.title;
      const text = document.createElement('div');
      text.textContent = n.text;
      li.append(title, text, ...n.tags.map((t) => Object.assign(document.createElement('span'), { className: 'tag', textContent: '#' + t })));
      return li;
    }));
  };
  window.addEventListener('message', (event) => {
    if (event.source !== host || !event.data || event.data.jsonrpc !== '2.0') return;
    const m = event.data;
    if (m.id === 1 && !m.method) send({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
    else if (m.method === 'ui/notifications/tool-result') render(m.params);
    else if (m.method === 'ui/resource-teardown' || m.method === 'ping') send({ jsonrpc: '2.0', id: m.id, result: {} });
  });
  send({ jsonrpc: '2.0', id: nextId++, method: 'ui/initialize', params: {
    protocolVersion: '2026-01-26',
    appInfo: { name: 'notes-board', version: '1.0.0' },
    appCapabilities: { availableDisplayModes: ['inline'] },
  } });
})();
</script>
</body>
</html>
`;

const noteSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    title: { type: 'string' },
    text: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['id', 'title', 'text', 'tags'],
};

/**
 * The notes server of `mcpkit demo`: a fresh in-memory notebook per call.
 *
 * @example
 * ```ts
 * await createNotesServer().connect(new StdioServerTransport());
 * ```
 */
export function createNotesServer(options: NotesServerOptions = {}): McpServer {
  const { stepMs = 150, ...serverOptions } = options;
  const notes = new Map(SEED.map((n) => [n.id, { ...n, tags: [...n.tags] }]));
  let nextId = SEED.length + 1;
  const changed = (): void => server.resourceUpdated('notes://all');
  const add = (note: Omit<Note, 'id'>): Note => {
    const saved = { id: `n${nextId++}`, ...note };
    notes.set(saved.id, saved);
    changed();
    return saved;
  };
  const matching = (query: string, tag?: string): Note[] => {
    const q = query.toLowerCase();
    return [...notes.values()].filter(
      (n) =>
        (tag === undefined || n.tags.includes(tag)) &&
        (n.title.toLowerCase().includes(q) || n.text.toLowerCase().includes(q)),
    );
  };

  const server = new McpServer(
    { name: 'notes', version: '1.0.0', title: 'Notes' },
    {
      instructions: 'A notebook: search_notes finds notes, add_note keeps one, show_board shows them all.',
      // Task pollers are told to look every 100 ms, so a person watching sees each step.
      tasks: { pollIntervalMs: 100 },
      ...serverOptions,
    },
  );

  server.tool(
    {
      name: 'search_notes',
      title: 'Search notes',
      description: 'Notes whose title or text contains the query, optionally with a tag',
      input: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Words to look for; empty finds every note' },
          tag: { type: 'string', description: 'Only notes with this tag' },
        },
        required: ['query'],
      },
      output: {
        type: 'object',
        properties: { notes: { type: 'array', items: noteSchema } },
        required: ['notes'],
      },
      annotations: { readOnlyHint: true },
    },
    (args) => {
      const found = matching(String(args.query), typeof args.tag === 'string' ? args.tag : undefined);
      return {
        content: [
          {
            type: 'text',
            text:
              found.length === 0 ? 'No note matches.' : found.map((n) => `${n.id}: ${n.title}`).join('\n'),
          },
        ],
        structuredContent: { notes: found },
      };
    },
  );

  server.tool(
    {
      name: 'add_note',
      title: 'Add a note',
      description: 'Keeps a new note',
      input: {
        type: 'object',
        properties: {
          title: { type: 'string', minLength: 1 },
          text: { type: 'string' },
          tags: { type: 'array', items: { type: 'string' }, default: [] },
        },
        required: ['title', 'text'],
      },
      output: noteSchema,
    },
    (args) => {
      const note = add({
        title: String(args.title),
        text: String(args.text),
        tags: Array.isArray(args.tags) ? args.tags.map(String) : [],
      });
      return { content: [{ type: 'text', text: `Kept as ${note.id}.` }], structuredContent: { ...note } };
    },
  );

  server.tool(
    {
      name: 'import_notes',
      title: 'Import notes',
      description: 'Imports notes from the phone app, reporting progress',
      input: {
        type: 'object',
        properties: { count: { type: 'integer', minimum: 1, maximum: IMPORTS.length, default: 3 } },
      },
    },
    async (args, ctx) => {
      const count = typeof args.count === 'number' ? args.count : 3;
      for (let i = 0; i < count; i++) {
        await pause(stepMs, ctx.signal);
        const note = add(IMPORTS[i]!);
        ctx.progress(i + 1, count, `imported "${note.title}"`);
      }
      return `Imported ${count} notes.`;
    },
  );

  server.tool(
    {
      name: 'delete_note',
      title: 'Delete a note',
      description: 'Deletes a note, after the user confirms',
      input: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      annotations: { destructiveHint: true },
    },
    async (args, ctx) => {
      const note = notes.get(String(args.id));
      if (!note) throw new Error(`There is no note ${String(args.id)}; search_notes lists them.`);
      // Asked of the user through the client: a request (legacy era) or input_required (modern).
      const answer = await ctx.elicit({
        message: `Delete "${note.title}"? It cannot be undone.`,
        requestedSchema: {
          type: 'object',
          properties: { confirm: { type: 'boolean', title: 'Delete it' } },
          required: ['confirm'],
        },
      });
      if (answer.action !== 'accept' || answer.content?.confirm !== true) return `Kept "${note.title}".`;
      notes.delete(note.id);
      changed();
      return `Deleted "${note.title}".`;
    },
  );

  server.tool(
    {
      name: 'weekly_digest',
      title: 'Weekly digest',
      description: 'Writes a digest of every note by tag; takes a while, so it may run as a task',
      input: { type: 'object', properties: {} },
      execution: { taskSupport: 'optional' },
    },
    async (_args, ctx) => {
      const tags = [...new Set([...notes.values()].flatMap((n) => n.tags))].sort();
      const lines: string[] = [];
      for (const tag of tags) {
        if (ctx.signal.aborted) break;
        ctx.status(`summarizing #${tag}`);
        await pause(stepMs, ctx.signal);
        lines.push(
          `#${tag}: ${matching('', tag)
            .map((n) => n.title)
            .join(', ')}`,
        );
      }
      return `Digest of ${notes.size} notes\n${lines.join('\n')}`;
    },
  );

  registerApp(
    server,
    {
      name: 'show_board',
      title: 'Show the board',
      description: 'Shows every note on a board (an MCP App view; hosts without Apps get the list as text)',
      resourceUri: NOTES_BOARD_URI,
      html: BOARD_HTML,
      view: { name: 'Notes board' },
      prefersBorder: true,
      input: { type: 'object', properties: {} },
    },
    () => {
      const all = [...notes.values()];
      return {
        content: [{ type: 'text', text: all.map((n) => `${n.id}: ${n.title}`).join('\n') }],
        structuredContent: { notes: all },
      };
    },
  );

  server.resource({ uri: 'notes://all', name: 'All notes', mimeType: 'application/json' }, (uri) => [
    { uri, mimeType: 'application/json', text: JSON.stringify([...notes.values()], null, 2) },
  ]);

  server.resourceTemplate(
    {
      uriTemplate: 'notes://{id}',
      name: 'A note',
      mimeType: 'text/plain',
      complete: { id: (typed) => [...notes.keys()].filter((id) => id.startsWith(typed)) },
    },
    (uri, { id }) => {
      const note = notes.get(String(id));
      return note ? [{ uri, text: `${note.title}\n\n${note.text}` }] : [];
    },
  );

  server.prompt(
    {
      name: 'plan_from_note',
      description: 'Turns a note into a plan of small steps',
      arguments: [
        {
          name: 'id',
          required: true,
          complete: (typed) => [...notes.keys()].filter((id) => id.startsWith(typed)),
        },
      ],
    },
    ({ id }) => {
      const note = notes.get(String(id));
      const text = note ? `${note.title}: ${note.text}` : `(no note ${String(id)})`;
      return [
        {
          role: 'user',
          content: { type: 'text', text: `Make a plan of small steps for this note.\n${text}` },
        },
      ];
    },
  );

  return server;
}
