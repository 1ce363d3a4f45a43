// The warning nodeListener gives once when the user's server keeps Node's lax slow-client
// timeouts (serve() sets its own: timed-server.ts).
import type { IncomingMessage, Server } from 'node:http';

/** Whether the warning below has had its one look (the listener reads it: no call per request). */
export const timeoutsChecked = { done: false };

/** Once per process: says so when the user's own server keeps Node's lax slow-client timeouts. */
export function warnAboutTimeouts(req: IncomingMessage): void {
  if (timeoutsChecked.done) return;
  timeoutsChecked.done = true;
  const server = (req.socket as { server?: Server }).server;
  if (server && server.requestTimeout === 300_000 && server.headersTimeout === 60_000) {
    console.error(
      "[mcpkit] nodeListener: this http.Server keeps Node's default timeouts (headers 60 s, " +
        'request 300 s); set server.headersTimeout and server.requestTimeout (serve() uses 10 s and 30 s) ' +
        'so slow clients cannot hold connections open',
    );
  }
}
