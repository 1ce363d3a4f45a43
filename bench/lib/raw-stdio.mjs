// A hand-written stdio MCP client: newline-delimited JSON-RPC, nothing else. Used as the
// floor for clients (the CLI's `tools --json`) and as a neutral driver for server cold starts.
import { spawn } from 'node:child_process';

/** Spawns a stdio server and returns a tiny request function over its stdin/stdout. */
export function rawStdio(command, args, options = {}) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'], ...options });
  const waiting = new Map();
  let next = 1;
  let buf = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buf += chunk;
    for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      const m = JSON.parse(line);
      const w = waiting.get(m.id);
      if (w) {
        waiting.delete(m.id);
        w(m);
      }
    }
  });
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  const notify = (method) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method }) + '\n');
  const close = () =>
    new Promise((resolve) => {
      child.once('exit', resolve);
      child.stdin.end();
      child.kill();
    });
  return { request, notify, close, pid: child.pid, child };
}

/** initialize, notifications/initialized, tools/list: what every client does first. */
export async function initializeAndList(c) {
  const init = await c.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  });
  if (!init.result) throw new Error(`initialize failed: ${JSON.stringify(init.error)}`);
  c.notify('notifications/initialized');
  const list = await c.request('tools/list', {});
  if (!list.result) throw new Error(`tools/list failed: ${JSON.stringify(list.error)}`);
  return list.result.tools;
}
