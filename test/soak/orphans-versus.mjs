#!/usr/bin/env node
// A program using a stdio client transport is killed by SIGTERM (it installed no handler of
// its own); its server ignores the end of its stdin, as a badly behaved one would. Does the
// server survive? mcpkit's StdioClientTransport against the official SDK v1's, side by side.
//   node test/soak/orphans-versus.mjs
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const server = here('../../dist/transports/stdio/fixtures/hardening-server.js');
const V1_PARENT = `
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
const transport = new StdioClientTransport({ command: process.execPath, args: [${JSON.stringify(server)}, 'stubborn'], stderr: 'ignore' });
const client = new Client({ name: 'orphan-parent', version: '1.0.0' });
await client.connect(transport);
process.stdout.write('pid ' + transport.pid + '\\n');
setInterval(() => undefined, 60_000);
`;
const parents = {
  mcpkit: [here('../../dist/transports/stdio/fixtures/orphan-parent.js'), 'stubborn'],
  'sdk-v1': ['--input-type=module', '-e', V1_PARENT],
};
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
for (const [name, args] of Object.entries(parents)) {
  const results = [];
  for (const signal of ['SIGTERM', 'SIGINT']) {
    const parent = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', 'inherit'],
      cwd: here('../..'),
    });
    let out = '';
    const pid = await new Promise((resolve) =>
      parent.stdout.on('data', (d) => {
        out += d;
        const m = /pid (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      }),
    );
    const exited = new Promise((resolve) => parent.once('exit', resolve));
    parent.kill(signal);
    await exited;
    const t = performance.now();
    while (alive(pid) && performance.now() - t < 5000) await new Promise((r) => setTimeout(r, 50));
    const survived = alive(pid);
    if (survived) process.kill(pid, 'SIGKILL');
    results.push(
      `${signal}: ${survived ? 'the server survived (still running 5 s later)' : `the server was gone ${(performance.now() - t).toFixed(0)} ms after the program`}`,
    );
  }
  console.log(`orphans ${name.padEnd(6)}: ${results.join('; ')}`);
}
process.exit(0);
