#!/usr/bin/env node
import { CliFailure, ExitCode } from './exit-codes.js';
import { demoServer, demoServerHelp } from './commands/demo-server.js';
import { demo, demoHelp } from './commands/demo.js';
import { listCommand, listHelp } from './commands/list.js';
import { call, callHelp } from './commands/call.js';
import { read, readHelp } from './commands/read.js';
import { prompt, promptHelp } from './commands/prompt.js';
import { complete, completeHelp } from './commands/complete.js';
import { shell, shellHelp } from './commands/shell.js';
import { host, hostHelp } from './commands/host.js';
import { proxy, proxyHelp } from './commands/proxy.js';
import { login, loginHelp, logout, logoutHelp } from './commands/login.js';
import { inspectHelp } from './commands/inspect-help.js';

const commands: Record<string, { run: (argv: string[]) => Promise<number>; help: string; summary: string }> =
  {
    tools: { run: listCommand('tools'), help: listHelp('tools'), summary: 'list the tools of a server' },
    resources: {
      run: listCommand('resources'),
      help: listHelp('resources'),
      summary: 'list the resources of a server',
    },
    templates: {
      run: listCommand('templates'),
      help: listHelp('templates'),
      summary: 'list the resource templates of a server',
    },
    prompts: {
      run: listCommand('prompts'),
      help: listHelp('prompts'),
      summary: 'list the prompts of a server',
    },
    call: { run: call, help: callHelp, summary: 'call a tool: mcpkit call TOOL key=value ...' },
    read: { run: read, help: readHelp, summary: 'read a resource: mcpkit read URI' },
    prompt: { run: prompt, help: promptHelp, summary: 'get a prompt: mcpkit prompt NAME key=value ...' },
    complete: { run: complete, help: completeHelp, summary: 'complete a prompt or template argument' },
    shell: { run: shell, help: shellHelp, summary: 'an interactive session with one server' },
    inspect: {
      run: async (argv) => (await import('./commands/inspect.js')).inspect(argv),
      help: inspectHelp,
      summary: 'a web inspector for servers (127.0.0.1, token)',
    },
    host: { run: host, help: hostHelp, summary: 'the host over a config: consent, catalog, agent loop' },
    proxy: { run: proxy, help: proxyHelp, summary: 'gateway over a config, or a stdio<->HTTP bridge' },
    login: {
      run: login,
      help: loginHelp,
      summary: 'sign in to a protected server (OAuth, loopback redirect)',
    },
    logout: { run: logout, help: logoutHelp, summary: 'forget the tokens stored for a server' },
    demo: { run: demo, help: demoHelp, summary: 'run the end-to-end demo (what npm start runs)' },
    'demo-server': { run: demoServer, help: demoServerHelp, summary: 'run the demo "everything" server' },
  };

function usage(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(14)}${c.summary}`);
  return `Usage: mcpkit <command> [options]

Commands:
${lines.join('\n')}

Run "mcpkit <command> --help" for a command's options and examples.`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? rest[0] : undefined;
    console.log(topic && Object.hasOwn(commands, topic) ? commands[topic]!.help : usage());
    return ExitCode.Ok;
  }
  if (name === '--version' || name === '-v') {
    console.log('mcpkit 0.1.0');
    return ExitCode.Ok;
  }
  if (!Object.hasOwn(commands, name)) {
    throw new CliFailure(
      `Unknown command "${name}". Run "mcpkit --help" to see the commands.`,
      ExitCode.Usage,
    );
  }
  return commands[name]!.run(rest);
}

const verbose = process.argv.includes('--verbose');
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    if (e instanceof CliFailure) {
      console.error(`mcpkit: ${e.message}`);
      process.exitCode = e.exitCode;
    } else {
      console.error(`mcpkit: ${e instanceof Error ? e.message : String(e)}`);
      if (verbose && e instanceof Error && e.stack) console.error(e.stack);
      process.exitCode = ExitCode.Connection;
    }
  },
);
