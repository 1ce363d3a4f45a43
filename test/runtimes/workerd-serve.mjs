// Runs `workerd serve <config> --experimental` and prints `listening http://127.0.0.1:<port>/mcp`
// once the port accepts connections (workerd itself prints nothing when ready), so workerd
// starts like every other runtime in launchers.mjs. Its stderr passes through; a signal to
// this process stops workerd too.
//
//   node workerd-serve.mjs <workerd binary> <config.capnp> <port>
import { spawn } from 'node:child_process';
import { connect } from 'node:net';

/** Resolves once 127.0.0.1:port accepts a connection; rejects when workerd exits first. */
async function waitForPort(port, exited) {
  let gone = false;
  void exited.then(() => (gone = true));
  for (let delay = 5; ; delay = Math.min(delay * 2, 200)) {
    const ok = await new Promise((resolve) => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (gone) throw new Error('workerd exited before listening');
    await new Promise((r) => setTimeout(r, delay));
  }
}

const [bin, config, port] = process.argv.slice(2);
const child = spawn(bin, ['serve', config, '--experimental'], { stdio: ['ignore', 'inherit', 'inherit'] });
const exited = new Promise((resolve) => child.once('exit', resolve));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
void exited.then((code) => process.exit(code ?? 1));
await waitForPort(Number(port), exited);
console.log(`listening http://127.0.0.1:${port}/mcp`);
