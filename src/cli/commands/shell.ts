import { createInterface } from 'node:readline/promises';
import type { Interface } from 'node:readline/promises';
import type { Client } from '../../client/client.js';
import type { ClientHandlers } from '../../client/types.js';
import type { ElicitResult } from '../../protocol/types/index.js';
import { coerceArguments, describeError } from '../arguments.js';
import { askFormFields, openClient, parseCommand, TARGET_HELP } from '../connection.js';
import { CliFailure, ExitCode } from '../exit-codes.js';
import { palette, progressBar, table } from '../format.js';
import { printContent } from './print-content.js';

export const shellHelp = `Usage: mcpkit shell <target>

An interactive session with one server: history, tab completion of tool names and
argument keys, and elicitation and sampling requests answered at the prompt.

Shell commands:
  tools | resources | templates | prompts     list
  call TOOL key=value ...                     call a tool (Tab completes names and keys)
  read URI                                    read a resource
  prompt NAME key=value ...                   get a prompt
  help                                        this list
  exit                                        leave (Ctrl-D works too)

${TARGET_HELP}

Examples:
  mcpkit shell --url http://127.0.0.1:3000/mcp
  mcpkit shell -- node server.js`;

const COMMANDS = ['tools', 'resources', 'templates', 'prompts', 'call', 'read', 'prompt', 'help', 'exit'];

interface ToolInfo {
  name: string;
  inputSchema?: { properties?: Record<string, unknown> };
}

/** Completes command names, then tool names after `call`, then `key=` for that tool's arguments. */
export function completeLine(line: string, tools: readonly ToolInfo[]): [string[], string] {
  const words = line.split(/\s+/);
  const current = words[words.length - 1] ?? '';
  if (words.length <= 1) return [COMMANDS.filter((c) => c.startsWith(current)), current];
  if (words[0] === 'call' && words.length === 2) {
    return [tools.map((t) => t.name).filter((n) => n.startsWith(current)), current];
  }
  if (words[0] === 'call' && words.length > 2) {
    const tool = tools.find((t) => t.name === words[1]);
    const used = new Set(words.slice(2, -1).map((w) => w.split('=')[0]));
    const keys = Object.keys(tool?.inputSchema?.properties ?? {})
      .filter((k) => !used.has(k))
      .map((k) => `${k}=`);
    return [keys.filter((k) => k.startsWith(current)), current];
  }
  return [[], current];
}

function promptHandlers(rl: () => Interface): ClientHandlers {
  const p = palette(process.stdout);
  return {
    elicitation: {
      handler: async (params): Promise<ElicitResult> => {
        console.log(p.yellow(`The server asks: ${String(params.message ?? '')}`));
        const content = await askFormFields(params, (q) => rl().question(q));
        const ok = await rl().question('  Send these answers? [Y/n] ');
        return /^n/i.test(ok) ? { action: 'decline' } : { action: 'accept', content };
      },
    },
    sampling: {
      handler: async (params) => {
        const last = params.messages[params.messages.length - 1]?.content as { text?: string } | undefined;
        console.log(p.yellow(`The server asks the model: ${last?.text ?? '(non-text content)'}`));
        const text = await rl().question('  Your completion: ');
        return { role: 'assistant', content: { type: 'text', text }, model: 'human', stopReason: 'endTurn' };
      },
    },
  };
}

async function runLine(client: Client, line: string, tools: ToolInfo[]): Promise<boolean> {
  const p = palette(process.stdout);
  const [cmd, ...rest] = line.trim().split(/\s+/);
  switch (cmd) {
    case undefined:
    case '':
      return true;
    case 'exit':
    case 'quit':
      return false;
    case 'help':
      console.log(shellHelp.split('\n\n')[2]);
      return true;
    case 'tools':
      console.log(
        table(
          ['NAME', 'DESCRIPTION'],
          tools.map((t) => [t.name, String((t as { description?: string }).description ?? '')]),
        ),
      );
      return true;
    case 'resources':
    case 'templates':
    case 'prompts': {
      const it =
        cmd === 'resources'
          ? client.resources()
          : cmd === 'templates'
            ? client.resourceTemplates()
            : client.prompts();
      const rows: string[][] = [];
      for await (const x of it as AsyncIterable<Record<string, unknown>>) {
        rows.push([String(x.uri ?? x.uriTemplate ?? x.name), String(x.description ?? x.name ?? '')]);
      }
      console.log(rows.length ? table(['NAME', 'DESCRIPTION'], rows) : `(no ${cmd})`);
      return true;
    }
    case 'call': {
      const [name, ...words] = rest;
      const tool = tools.find((t) => t.name === name);
      if (!name || !tool) {
        console.log(p.red(name ? `No tool named "${name}"` : 'Usage: call TOOL key=value ...'));
        return true;
      }
      const args = coerceArguments(words, tool.inputSchema as Record<string, unknown>);
      const result = await client.callTool(
        { name, arguments: args },
        { onprogress: (pr) => console.log(p.cyan(progressBar(pr.progress, pr.total, pr.message))) },
      );
      printContent((result.content ?? []) as unknown as Record<string, unknown>[], result.structuredContent);
      if (result.isError) console.log(p.red('(the tool reported an error)'));
      return true;
    }
    case 'read': {
      if (!rest[0]) {
        console.log(p.red('Usage: read URI'));
        return true;
      }
      const result = await client.readResource({ uri: rest[0] });
      printContent(result.contents.map((c) => ({ type: 'resource', resource: c })));
      return true;
    }
    case 'prompt': {
      const [name, ...words] = rest;
      if (!name) {
        console.log(p.red('Usage: prompt NAME key=value ...'));
        return true;
      }
      const args: Record<string, string> = {};
      for (const w of words) {
        const eq = w.indexOf('=');
        if (eq > 0) args[w.slice(0, eq)] = w.slice(eq + 1);
      }
      const result = await client.getPrompt({ name, arguments: args });
      for (const m of result.messages) {
        process.stdout.write(`${m.role}: `);
        printContent([m.content as unknown as Record<string, unknown>]);
      }
      return true;
    }
    default:
      console.log(p.red(`Unknown command "${cmd}"; type help`));
      return true;
  }
}

export async function shell(argv: string[]): Promise<number> {
  const { global, help } = parseCommand(argv, {}, 'mcpkit shell <target>');
  if (help) {
    console.log(shellHelp);
    return ExitCode.Ok;
  }
  let rl!: Interface;
  let tools: ToolInfo[] = [];
  const client = await openClient(
    global,
    promptHandlers(() => rl),
  );
  const p = palette(process.stdout);
  const refresh = async (): Promise<void> => {
    const all: ToolInfo[] = [];
    for await (const t of client.tools()) all.push(t as unknown as ToolInfo);
    tools = all;
  };
  try {
    await refresh();
    rl = createInterface({
      input: process.stdin,
      output: process.stdout,
      historySize: 500,
      completer: (line: string) => completeLine(line, tools),
    });
    console.log(
      `Connected to ${p.bold(String(client.serverInfo?.name ?? 'server'))} (protocol ${client.protocolVersion}). ` +
        `${tools.length} tools. Type help, or Tab to complete.`,
    );
    for (;;) {
      let line: string;
      try {
        line = await rl.question(p.green('mcp> '));
      } catch {
        break; // Ctrl-D or closed input
      }
      try {
        if (!(await runLine(client, line, tools))) break;
        if (line.trim().startsWith('call')) await refresh();
      } catch (e) {
        if (e instanceof CliFailure) console.log(p.red(e.message));
        else console.log(p.red(describeError(e)));
      }
    }
    return ExitCode.Ok;
  } finally {
    rl?.close();
    await client.close();
  }
}
