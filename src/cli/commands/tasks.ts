import { openClient, parseCommand, TARGET_HELP } from '../connection.js';
import { CliFailure, ExitCode } from '../exit-codes.js';
import { palette } from '../format.js';
import type { TaskInfo } from '../../client/index.js';
import { printContent } from './print-content.js';

export const tasksHelp = `Usage: mcpkit tasks list|get|result|cancel [TASK_ID] <target>

Works with one server's tasks (long-running tool calls; start one without waiting
with: mcpkit call TOOL --detach ...).

  list            the tasks this client may see (2025-11-25 servers; the tasks
                  extension has no listing)
  get TASK_ID     the task's status
  result TASK_ID  waits for the task to end, answering its questions, and prints the
                  result (exit code 1 when the tool reported an error)
  cancel TASK_ID  asks the server to cancel the task

Tasks are bound to their owner: with 2025-11-25 servers that is the connection (or
the signed-in user), so a new connection sees its own tasks only; with the tasks
extension (protocol 2026-07-28) an unauthenticated task id is enough.

${TARGET_HELP}

Examples:
  mcpkit call research_report topic=otters --detach --era modern --url http://127.0.0.1:3000/mcp
  mcpkit tasks result 3f1c... --era modern --url http://127.0.0.1:3000/mcp`;

/** One line per task: id, status, message. */
export function taskLine(t: TaskInfo): string {
  return `${t.taskId}  ${t.status}${t.statusMessage ? `  ${t.statusMessage}` : ''}`;
}

export async function tasks(argv: string[]): Promise<number> {
  const { global, positionals, help } = parseCommand(
    argv,
    {},
    'mcpkit tasks list|get|result|cancel [TASK_ID] <target>',
  );
  if (help) {
    console.log(tasksHelp);
    return ExitCode.Ok;
  }
  const [action, taskId] = positionals;
  if (action !== 'list' && action !== 'get' && action !== 'result' && action !== 'cancel') {
    throw new CliFailure('Usage: mcpkit tasks list|get|result|cancel [TASK_ID] <target>', ExitCode.Usage);
  }
  if (action !== 'list' && !taskId)
    throw new CliFailure(`mcpkit tasks ${action} needs a TASK_ID`, ExitCode.Usage);
  const p = palette(process.stderr);
  const client = await openClient(global);
  try {
    if (action === 'list') {
      const all: TaskInfo[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.tasks.list(cursor);
        all.push(...page.tasks);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      if (global.json) console.log(JSON.stringify(all, null, 2));
      else if (all.length === 0) process.stderr.write(p.dim('No tasks\n'));
      else for (const t of all) console.log(taskLine(t));
      return ExitCode.Ok;
    }
    const id = taskId!;
    if (action === 'get') {
      const t = await client.tasks.get(id);
      console.log(global.json ? JSON.stringify(t, null, 2) : taskLine(t));
      return ExitCode.Ok;
    }
    if (action === 'cancel') {
      await client.tasks.cancel(id);
      const t = await client.tasks.get(id).catch(() => undefined);
      process.stderr.write(`Cancel requested${t ? `; the task is ${t.status}` : ''}\n`);
      return ExitCode.Ok;
    }
    const result = await client.tasks.resume(id).result({
      onStatus: (t) =>
        process.stderr.write(
          p.cyan(`[task] ${t.status}${t.statusMessage ? `: ${t.statusMessage}` : ''}`) + '\n',
        ),
    });
    if (global.json) console.log(JSON.stringify(result, null, 2));
    else
      printContent((result.content ?? []) as unknown as Record<string, unknown>[], result.structuredContent);
    return result.isError ? ExitCode.ToolError : ExitCode.Ok;
  } finally {
    await client.close();
  }
}
