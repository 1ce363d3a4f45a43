// The server side of the idle-streams soak, in its own process so its memory is its own:
// the demo server over serve(), reporting memoryUsage() (after GC) when asked over IPC.
import { serve } from '../../dist/serve/index.js';
import { createEverythingServer } from '../../dist/demo/everything-server.js';

const running = await serve(createEverythingServer(), {
  port: 0,
  maxSessions: 100_000,
  maxSessionsPerClient: 100_000,
  // No keep-alive comments during the measurement: idle means idle.
  keepAliveMs: 3_600_000,
});
process.on('message', (m) => {
  if (m === 'mem') {
    globalThis.gc?.();
    process.send({ mem: process.memoryUsage(), sessions: running.handler.sessionCount });
  }
});
process.send({ url: running.url, port: running.port });
