import { coerceArguments, parseArgsJson } from '../arguments.js';
import { openClient, parseCommand, TARGET_HELP, terminalQuestions } from '../connection.js';
import { CliFailure, ExitCode } from '../exit-codes.js';
import { palette, progressBar } from '../format.js';
import { suggestion } from '../suggest.js';
import { printContent } from './print-content.js';

export const callHelp = `Usage: mcpkit call TOOL [key=value ...] [--args JSON] [--detach] <target>

Calls a tool. key=value arguments are coerced with the tool's input schema (numbers,
booleans, JSON for objects and arrays); --args takes the whole object as JSON.
Progress shows as a bar and log messages as coloured lines, on stderr.
Exit code 1 when the tool answers with isError.
A tool that runs as a task (long-running) shows its status lines and questions as it
goes; --detach starts it as a task, prints the task id and exits (see: mcpkit tasks).

${TARGET_HELP}

Examples:
  mcpkit call add a=2 b=3 --url http://127.0.0.1:3000/mcp
  mcpkit call echo --args '{"text":"hi"}' -- node server.js`;

export async function call(argv: string[]): Promise<number> {
  const { global, values, positionals, help } = parseCommand(
    argv,
    { args: { type: 'string' }, detach: { type: 'boolean' } },
    'mcpkit call TOOL [key=value ...] <target>',
  );
  if (help) {
    console.log(callHelp);
    return ExitCode.Ok;
  }
  const [name, ...words] = positionals;
  if (!name)
    throw new CliFailure('Which tool? Usage: mcpkit call TOOL [key=value ...] <target>', ExitCode.Usage);
  if (values.args !== undefined && words.length > 0)
    throw new CliFailure('Use key=value or --args, not both', ExitCode.Usage);
  const p = palette(process.stderr);
  const client = await openClient(global);
  try {
    let tool: Record<string, unknown> | undefined;
    const names: string[] = [];
    for await (const t of client.tools()) {
      names.push(t.name);
      if (t.name === name) tool = t as unknown as Record<string, unknown>;
    }
    if (!tool)
      throw new CliFailure(
        `The server has no tool named "${name}"${suggestion(name, names)} (see: mcpkit tools)`,
        ExitCode.Usage,
      );
    const args =
      values.args !== undefined
        ? parseArgsJson(values.args as string)
        : coerceArguments(words, tool.inputSchema as Record<string, unknown> | undefined);
    const tty = process.stderr.isTTY === true;
    client.onnotification = (n) => {
      if (n.method !== 'notifications/message') return;
      const params = n.params as { level?: string; data?: unknown; logger?: string };
      const colour =
        params.level === 'error' || params.level === 'critical'
          ? p.red
          : params.level === 'warning'
            ? p.yellow
            : p.dim;
      const data = typeof params.data === 'string' ? params.data : JSON.stringify(params.data);
      process.stderr.write(
        colour(`[${params.level}]${params.logger ? ` ${params.logger}:` : ''} ${data}`) + '\n',
      );
    };
    if (values.detach === true) {
      const task = await client.tasks.start({ name, arguments: args });
      if (task.immediate) {
        process.stderr.write(p.dim('The server answered at once instead of starting a task\n'));
        printContent((task.immediate.content ?? []) as unknown as Record<string, unknown>[]);
        return task.immediate.isError ? ExitCode.ToolError : ExitCode.Ok;
      }
      console.log(global.json ? JSON.stringify(task.info, null, 2) : task.taskId);
      return ExitCode.Ok;
    }
    const result = await client.callTool(
      { name, arguments: args },
      {
        onTaskStatus: (t) => {
          // A question being typed keeps its line; its own prompt says the task waits.
          if (terminalQuestions.open > 0) return;
          if (tty) process.stderr.write('\r\x1b[K');
          const id = t.taskId.length > 12 ? `${t.taskId.slice(0, 8)}…` : t.taskId;
          process.stderr.write(
            p.cyan(`[task ${id}] ${t.status}${t.statusMessage ? `: ${t.statusMessage}` : ''}`) + '\n',
          );
        },
        onprogress: (pr) => {
          if (terminalQuestions.open > 0) return;
          const line = progressBar(pr.progress, pr.total, pr.message);
          process.stderr.write(tty ? `\r${p.cyan(line)}\x1b[K` : `${line}\n`);
        },
      },
    );
    if (tty) process.stderr.write('\r\x1b[K');
    if (global.json) console.log(JSON.stringify(result, null, 2));
    else
      printContent((result.content ?? []) as unknown as Record<string, unknown>[], result.structuredContent);
    if (result.isError) {
      if (!global.json) process.stderr.write(p.red(`Tool ${name} reported an error\n`));
      return ExitCode.ToolError;
    }
    return ExitCode.Ok;
  } finally {
    await client.close();
  }
}
