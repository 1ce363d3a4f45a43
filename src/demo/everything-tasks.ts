/**
 * The demo server's task tools: the fixtures the conformance suite's `tasks-*` scenarios
 * call, and three that show tasks off interactively. Every handler is an ordinary tool
 * handler; `execution.taskSupport` alone makes it a task.
 */
import { WireError } from '../jsonrpc/index.js';
import type { McpServer } from '../server/server.js';
import type { ServerContext } from '../server/server-context.js';
import { toolError } from '../server/tools.js';
import { objectSchema, pause } from './everything-extras.js';

const CONFIRM_SCHEMA = objectSchema({ confirm: { type: 'boolean', description: 'Go ahead?' } }, ['confirm']);

async function confirm(ctx: ServerContext, message: string): Promise<boolean> {
  const answer = await ctx.elicit({ mode: 'form', message, requestedSchema: CONFIRM_SCHEMA } as never);
  return (
    answer.action === 'accept' && (answer.content as { confirm?: unknown } | undefined)?.confirm === true
  );
}

/** Registers the task tools on the demo server. */
export function registerEverythingTasks(server: McpServer): void {
  // ------------------------------------------------------------- conformance fixtures

  server.tool(
    {
      name: 'greet',
      description: 'Greets someone at once (never a task)',
      input: objectSchema({ name: { type: 'string' } }),
    },
    (args) => `Hello, ${(args as { name?: string }).name ?? 'World'}!`,
  );

  server.tool(
    {
      name: 'slow_compute',
      description: 'Sleeps for `seconds`, then answers; may run as a task and honours cancellation',
      input: objectSchema({ seconds: { type: 'number', minimum: 0 }, label: { type: 'string' } }),
      execution: { taskSupport: 'optional' },
    },
    async (args, ctx) => {
      const { seconds = 1, label = 'job' } = args as { seconds?: number; label?: string };
      const ms = Math.min(Math.max(0, seconds), 600) * 1000;
      ctx.status(`Computing ${label}`);
      await pause(ms, ctx.signal);
      return `Computed ${label} after ${seconds} s`;
    },
  );

  server.tool(
    {
      name: 'failing_job',
      description: 'Runs for about a second, then reports a tool error (always a task)',
      input: objectSchema(),
      execution: { taskSupport: 'required' },
    },
    async (_args, ctx) => {
      await pause(1000, ctx.signal);
      return toolError('The job failed: the input data was rejected');
    },
  );

  server.tool(
    {
      name: 'protocol_error_job',
      description: 'Fails with a JSON-RPC error instead of a result (a failed task)',
      input: objectSchema(),
      execution: { taskSupport: 'optional' },
    },
    async (_args, ctx) => {
      await pause(100, ctx.signal);
      throw WireError.internal('The job crashed: simulated internal failure');
    },
  );

  server.tool(
    {
      name: 'confirm_delete',
      description: 'Asks for confirmation before deleting a file (input_required mid-task)',
      input: objectSchema({ filename: { type: 'string' } }),
      execution: { taskSupport: 'optional' },
    },
    async (args, ctx) => {
      const filename = (args as { filename?: string }).filename ?? 'file.txt';
      const ok = await confirm(ctx, `Delete ${filename}?`);
      return ok ? `Deleted ${filename}` : `Kept ${filename}`;
    },
  );

  server.tool(
    {
      name: 'multi_input',
      description: 'Asks two questions at once',
      input: objectSchema(),
      execution: { taskSupport: 'optional' },
    },
    async (_args, ctx) => {
      const schema = objectSchema({ name: { type: 'string' }, confirm: { type: 'boolean' } });
      const [a, b] = await Promise.all([
        ctx.elicit({ mode: 'form', message: 'First answer?', requestedSchema: schema } as never),
        ctx.elicit({ mode: 'form', message: 'Second answer?', requestedSchema: schema } as never),
      ]);
      return `Got ${JSON.stringify(a.content ?? {})} and ${JSON.stringify(b.content ?? {})}`;
    },
  );

  server.tool(
    {
      name: 'test_tool_with_task',
      description: 'Asks for a name synchronously, then finishes the work as a task',
      input: objectSchema(),
      execution: { taskSupport: 'required' },
      deferTask: true,
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit({
        mode: 'form',
        message: 'What is your name?',
        requestedSchema: objectSchema({ name: { type: 'string' } }, ['name']),
      } as never);
      const name = (answer.content as { name?: unknown } | undefined)?.name;
      const user_name = typeof name === 'string' ? name : 'stranger';
      await ctx.startTask();
      await pause(200, ctx.signal);
      return `Hello, ${user_name}! Your task is done.`;
    },
  );

  // ------------------------------------------------------------- interactive demos

  server.tool(
    {
      name: 'research_report',
      description: 'Writes a short report on a topic over a few seconds, with status updates (always a task)',
      input: objectSchema({ topic: { type: 'string' } }, ['topic']),
      execution: { taskSupport: 'required' },
    },
    async (args, ctx) => {
      const topic = (args as { topic: string }).topic;
      const steps = ['Gathering sources', 'Reading', 'Comparing findings', 'Writing the report'];
      for (let i = 0; i < steps.length; i++) {
        ctx.progress(i + 1, steps.length, `${steps[i]} on ${topic}`);
        await pause(600, ctx.signal);
      }
      return `Report on ${topic}: sources agree; nothing alarming found.`;
    },
  );

  server.tool(
    {
      name: 'approve_deployment',
      description: 'Prepares a deployment, asks for approval mid-task, then deploys',
      input: objectSchema({ service: { type: 'string' } }),
      execution: { taskSupport: 'optional' },
    },
    async (args, ctx) => {
      const service = (args as { service?: string }).service ?? 'web';
      ctx.status(`Building ${service}`);
      await pause(500, ctx.signal);
      if (!(await confirm(ctx, `Deploy ${service} to production?`)))
        return `Deployment of ${service} cancelled`;
      ctx.status(`Deploying ${service}`);
      await pause(500, ctx.signal);
      return `Deployed ${service}`;
    },
  );

  server.tool(
    {
      name: 'watch_until_cancelled',
      description: 'Keeps working (up to 10 minutes) until it is cancelled',
      input: objectSchema(),
      execution: { taskSupport: 'optional' },
    },
    async (_args, ctx) => {
      for (let i = 1; i <= 600; i++) {
        ctx.status(`Still watching (${i} s)`);
        await pause(1000, ctx.signal);
      }
      return 'Watched for 10 minutes; nothing happened';
    },
  );
}
