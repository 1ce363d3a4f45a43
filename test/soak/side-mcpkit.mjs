// mcpkit's side of versus-sdk-load.mjs: serve() with three tools (`echo`; `slow`, which
// reports progress every 100 ms for `ms`; `held`, which waits for a release over IPC) and
// one subscribable resource whose updates are the notification source. Options for
// serve() come as JSON in argv[2] (for example raised session caps for the soak cases).
import { z } from 'zod';
import { McpServer } from '../../dist/index.js';
import { serve } from '../../dist/serve/index.js';
import { pause, ready, tools } from './side-common.mjs';

const WATCHED = 'test://watched';
const server = new McpServer({ name: 'side-mcpkit', version: '1.0.0' });
server.tool({ name: 'echo', input: z.object({ text: z.string() }) }, ({ text }) => ({
  content: [{ type: 'text', text }],
}));
server.tool({ name: 'slow', input: z.object({ ms: z.number() }) }, async ({ ms }, ctx) => {
  tools.running++;
  try {
    for (let t = 0, i = 0; t < ms && !ctx.signal.aborted; t += 100) {
      ctx.progress(++i);
      await pause(100, ctx.signal);
    }
    return { content: [{ type: 'text', text: 'done' }] };
  } finally {
    tools.running--;
  }
});
server.tool({ name: 'held', input: z.object({}) }, async (_args, ctx) => {
  tools.running++;
  try {
    await tools.hold(ctx.signal);
    return { content: [{ type: 'text', text: 'released' }] };
  } finally {
    tools.running--;
  }
});
server.resource({ uri: WATCHED, name: 'watched' }, () => ({ text: 'watched' }));

const options = JSON.parse(process.argv[2] ?? '{}');
const running = await serve(server, { port: 0, ...options });
ready(running.port, {
  publish: () => server.resourceUpdated(WATCHED),
  sessions: () => running.handler.sessionCount,
});
