import type { Client } from '../../client/client.js';
import { ExitCode } from '../exit-codes.js';
import { openClient, parseCommand, TARGET_HELP } from '../connection.js';
import { table } from '../format.js';

type Kind = 'tools' | 'resources' | 'templates' | 'prompts';

const what: Record<Kind, string> = {
  tools: 'the tools a server offers',
  resources: 'the resources a server offers',
  templates: 'the resource templates a server offers',
  prompts: 'the prompts a server offers',
};

export function listHelp(kind: Kind): string {
  return `Usage: mcpkit ${kind} <target> [--json]

Lists ${what[kind]}, following pagination cursors to the end.

${TARGET_HELP}

Examples:
  mcpkit ${kind} --url http://127.0.0.1:3000/mcp
  mcpkit ${kind} --json -- npx -y @modelcontextprotocol/server-everything`;
}

async function collect(client: Client, kind: Kind): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  const it =
    kind === 'tools'
      ? client.tools()
      : kind === 'resources'
        ? client.resources()
        : kind === 'templates'
          ? client.resourceTemplates()
          : client.prompts();
  for await (const item of it as AsyncIterable<Record<string, unknown>>) out.push(item);
  return out;
}

function rows(kind: Kind, items: Record<string, unknown>[]): { headers: string[]; rows: string[][] } {
  const s = (v: unknown) => (v === undefined ? '' : String(v));
  switch (kind) {
    case 'tools':
      return {
        headers: ['NAME', 'ARGUMENTS', 'DESCRIPTION'],
        rows: items.map((t) => {
          const schema = t.inputSchema as
            { properties?: Record<string, unknown>; required?: string[] } | undefined;
          const req = new Set(schema?.required ?? []);
          const args = Object.keys(schema?.properties ?? {}).map((a) => (req.has(a) ? a : `${a}?`));
          return [s(t.name), args.join(' '), s(t.description ?? t.title)];
        }),
      };
    case 'resources':
      return {
        headers: ['URI', 'NAME', 'MIME', 'DESCRIPTION'],
        rows: items.map((r) => [s(r.uri), s(r.name), s(r.mimeType), s(r.description)]),
      };
    case 'templates':
      return {
        headers: ['URI TEMPLATE', 'NAME', 'DESCRIPTION'],
        rows: items.map((r) => [s(r.uriTemplate), s(r.name), s(r.description)]),
      };
    case 'prompts':
      return {
        headers: ['NAME', 'ARGUMENTS', 'DESCRIPTION'],
        rows: items.map((p) => {
          const args = ((p.arguments as Array<{ name: string; required?: boolean }> | undefined) ?? []).map(
            (a) => (a.required ? a.name : `${a.name}?`),
          );
          return [s(p.name), args.join(' '), s(p.description)];
        }),
      };
  }
}

export function listCommand(kind: Kind): (argv: string[]) => Promise<number> {
  return async (argv) => {
    const { global, help } = parseCommand(argv, {}, `mcpkit ${kind} <target>`);
    if (help) {
      console.log(listHelp(kind));
      return ExitCode.Ok;
    }
    const client = await openClient(global);
    try {
      const items = await collect(client, kind);
      if (global.json) console.log(JSON.stringify(items, null, 2));
      else if (items.length === 0) console.log(`(no ${kind})`);
      else {
        const t = rows(kind, items);
        console.log(table(t.headers, t.rows));
      }
      return ExitCode.Ok;
    } finally {
      await client.close();
    }
  };
}
