#!/usr/bin/env node
// A tool handler that writes to stdout (console.log/info/debug/dir/table and
// process.stdout.write), on mcpkit's stdio server and on the official SDK v1's, called 20
// times by the official v1 client: how many stray lines reach the client, and whether the
// calls still succeed.   node test/soak/stdout-noise.mjs
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const servers = {
  mcpkit: here('../../dist/transports/stdio/fixtures/hardening-server.js'),
  'sdk-v1': here('./v1-noisy-server.mjs'),
};
const CALLS = 20;
for (const [name, entry] of Object.entries(servers)) {
  const client = new Client({ name: 'noise', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [entry], stderr: 'ignore' });
  let errors = 0;
  let ok = 0;
  await client.connect(transport);
  // Set after connect: the client's own onerror wiring is then in place to wrap.
  const onerror = transport.onerror;
  transport.onerror = (e) => {
    errors++;
    onerror?.(e);
  };
  for (let i = 0; i < CALLS; i++) {
    const r = await client.callTool({ name: 'noisy', arguments: {} }).catch(() => undefined);
    if (r?.content?.[0]?.text === 'quiet') ok++;
  }
  await client.close();
  console.log(
    `stdout-noise ${name.padEnd(6)}: ${ok}/${CALLS} calls answered; ${errors} stray stdout lines or fragments reported by the v1 client as errors`,
  );
}
process.exit(0);
