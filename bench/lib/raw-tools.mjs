// The hand-written floor for `mcpkit tools --json -- COMMAND ...`: spawn the server, initialize,
// list the tools, print them as JSON, exit.
import { initializeAndList, rawStdio } from './raw-stdio.mjs';

const dash = process.argv.indexOf('--');
const [command, ...args] = process.argv.slice(dash + 1);
const c = rawStdio(command, args);
const tools = await initializeAndList(c);
console.log(JSON.stringify(tools, null, 2));
await c.close();
