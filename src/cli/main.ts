#!/usr/bin/env node
import { CliFailure, ExitCode } from './exit-codes.js';
import { silenceDeprecations } from '../protocol/deprecation.js';
import { enableCliTelemetry, otelWanted } from './otel-wanted.js';

/** A command as main needs it once loaded: what runs it and its help text. */
interface LoadedCommand {
  run: (argv: string[]) => Promise<number>;
  help: string;
}

type Kind = 'tools' | 'resources' | 'templates' | 'prompts';
const list = (kind: Kind) => (): Promise<LoadedCommand> =>
  import('./commands/list.js').then((m) => ({ run: m.listCommand(kind), help: m.listHelp(kind) }));

// Only the command that runs is loaded: `--help` reads the summaries here, and a stdio
// command never pulls in the HTTP client, auth or the host (every CLI call is a process start).
const commands: Record<string, { summary: string; load: () => Promise<LoadedCommand> }> = {
  tools: { summary: 'list the tools of a server', load: list('tools') },
  resources: { summary: 'list the resources of a server', load: list('resources') },
  templates: { summary: 'list the resource templates of a server', load: list('templates') },
  prompts: { summary: 'list the prompts of a server', load: list('prompts') },
  call: {
    summary: 'call a tool: mcpkit call TOOL key=value ...',
    load: () => import('./commands/call.js').then((m) => ({ run: m.call, help: m.callHelp })),
  },
  load: {
    summary: 'load-test a tool: mcpkit load --tool NAME --calls M',
    load: () => import('./commands/load.js').then((m) => ({ run: m.load, help: m.loadHelp })),
  },
  lint: {
    summary: 'check tools for host portability and readiness',
    load: () => import('./commands/lint.js').then((m) => ({ run: m.lint, help: m.lintHelp })),
  },
  tasks: {
    summary: "a server's tasks: mcpkit tasks list|get|result|cancel",
    load: () => import('./commands/tasks.js').then((m) => ({ run: m.tasks, help: m.tasksHelp })),
  },
  read: {
    summary: 'read a resource: mcpkit read URI',
    load: () => import('./commands/read.js').then((m) => ({ run: m.read, help: m.readHelp })),
  },
  prompt: {
    summary: 'get a prompt: mcpkit prompt NAME key=value ...',
    load: () => import('./commands/prompt.js').then((m) => ({ run: m.prompt, help: m.promptHelp })),
  },
  complete: {
    summary: 'complete a prompt or template argument',
    load: () => import('./commands/complete.js').then((m) => ({ run: m.complete, help: m.completeHelp })),
  },
  shell: {
    summary: 'an interactive session with one server',
    load: () => import('./commands/shell.js').then((m) => ({ run: m.shell, help: m.shellHelp })),
  },
  inspect: {
    summary: 'a web inspector for servers (127.0.0.1, token)',
    load: () => import('./commands/inspect.js').then((m) => ({ run: m.inspect, help: m.inspectHelp })),
  },
  replay: {
    summary: 'send a recorded session again and show what differs',
    load: () => import('./commands/replay.js').then((m) => ({ run: m.replay, help: m.replayHelp })),
  },
  host: {
    summary: 'the host over a config: consent, catalog, agent loop',
    load: () => import('./commands/host.js').then((m) => ({ run: m.host, help: m.hostHelp })),
  },
  proxy: {
    summary: 'gateway over a config, or a stdio<->HTTP bridge',
    load: () => import('./commands/proxy.js').then((m) => ({ run: m.proxy, help: m.proxyHelp })),
  },
  login: {
    summary: 'sign in to a protected server (OAuth, loopback redirect)',
    load: () => import('./commands/login.js').then((m) => ({ run: m.login, help: m.loginHelp })),
  },
  logout: {
    summary: 'forget the tokens stored for a server',
    load: () => import('./commands/login.js').then((m) => ({ run: m.logout, help: m.logoutHelp })),
  },
  'server-json': {
    summary: 'write and check a server.json for the MCP Registry',
    load: () =>
      import('./commands/server-json.js').then((m) => ({ run: m.serverJson, help: m.serverJsonHelp })),
  },
  publish: {
    summary: 'publish a server.json to the MCP Registry',
    load: () => import('./commands/publish.js').then((m) => ({ run: m.publish, help: m.publishHelp })),
  },
  demo: {
    summary: 'run the end-to-end demo (what npm start runs)',
    load: () => import('./commands/demo.js').then((m) => ({ run: m.demo, help: m.demoHelp })),
  },
  'demo-server': {
    summary: 'run the demo "everything" server',
    load: () =>
      import('./commands/demo-server.js').then((m) => ({ run: m.demoServer, help: m.demoServerHelp })),
  },
};

function usage(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(14)}${c.summary}`);
  return `Usage: mcpkit <command> [options]

Commands:
${lines.join('\n')}

Run "mcpkit <command> --help" for a command's options and examples.`;
}

async function main(argv: string[]): Promise<number> {
  // The CLI keeps roots, sampling and logging on purpose, for servers that still use them;
  // the deprecation warnings are for developers calling the library, not for CLI users.
  silenceDeprecations();
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? rest[0] : undefined;
    console.log(topic && Object.hasOwn(commands, topic) ? (await commands[topic]!.load()).help : usage());
    return ExitCode.Ok;
  }
  if (name === '--version' || name === '-v') {
    console.log('mcpkit 0.1.0');
    return ExitCode.Ok;
  }
  if (!Object.hasOwn(commands, name)) {
    const { suggestion } = await import('./suggest.js');
    throw new CliFailure(
      `Unknown command "${name}"${suggestion(name, Object.keys(commands))}. Run "mcpkit --help" to see the commands.`,
      ExitCode.Usage,
    );
  }
  const command = await commands[name]!.load();
  if (!OTEL_COMMANDS.has(name) || rest.includes('--help') || rest.includes('-h') || !otelWanted(process.env))
    return command.run(rest);
  // The SDK loads only when the environment asks for it (a dynamic import, so the other runs
  // load nothing of OpenTelemetry), and is flushed however the command ends.
  const { startCliOtel } = await import('./otel-env.js');
  const otel = await startCliOtel(name);
  enableCliTelemetry();
  try {
    return await command.run(rest);
  } finally {
    // A collector that is down must not hold the process: past the bounded wait, main exits.
    if (!(await otel.shutdown())) forceExit = true;
  }
}

/** The commands that export telemetry when the `OTEL_*` environment asks: servers, gateway, host, clients. */
const OTEL_COMMANDS = new Set([
  'tools',
  'resources',
  'templates',
  'prompts',
  'call',
  'tasks',
  'read',
  'prompt',
  'complete',
  'shell',
  'host',
  'proxy',
  'demo-server',
]);

/** Set when the telemetry's flush timed out: its exporter's pending requests must not keep the process alive. */
let forceExit = false;

/** A JSON-RPC "invalid params" answer (WireError -32602), told without loading the engine. */
function isInvalidParams(e: unknown): e is Error {
  return e instanceof Error && e.name === 'WireError' && (e as { code?: unknown }).code === -32602;
}

const verbose = process.argv.includes('--verbose');
main(process.argv.slice(2))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      if (e instanceof CliFailure) {
        console.error(`mcpkit: ${e.message}`);
        process.exitCode = e.exitCode;
      } else if (isInvalidParams(e)) {
        // The server refused what the command line gave it (-32602): a usage error, exit 2.
        console.error(`mcpkit: ${e.message}`);
        process.exitCode = ExitCode.Usage;
      } else {
        console.error(`mcpkit: ${e instanceof Error ? e.message : String(e)}`);
        if (verbose && e instanceof Error && e.stack) console.error(e.stack);
        process.exitCode = ExitCode.Connection;
      }
    },
  )
  .finally(() => {
    if (forceExit) process.exit();
  });
