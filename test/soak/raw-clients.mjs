// Raw clients the soak and attack scripts share: an MCP POST/DELETE over node:http that
// reports a connection error as its status instead of throwing, and a crowd of raw TCP
// connections that send a header (or nothing) and then dribble bytes.
import http from 'node:http';
import net from 'node:net';

/**
 * One request to `/mcp` on 127.0.0.1 through `agent`; resolves `{ status, sid, text }`, or
 * `{ status: <error code> }` when the connection fails (a refusal is a result here).
 */
export function mcpRequest(agent, port, method, headers, body) {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method,
        agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode, sid: res.headers['mcp-session-id'], text }));
      },
    );
    req.on('error', (e) => resolve({ status: e.code }));
    req.end(body);
  });
}

/**
 * Opens `n` raw connections that send `head` (maybe nothing) and then a byte every `dripMs`
 * (0: nothing more). They read what the server says (a 408 before it closes): a socket that
 * never reads would never see the end either, and would count as open although the server
 * closed it. `closedAt` collects each close, in ms after `started`.
 */
export function openConnections(port, n, head, dripMs) {
  const started = performance.now();
  const closedAt = [];
  const sockets = [];
  for (let i = 0; i < n; i++) {
    const s = net.connect(port, '127.0.0.1');
    s.on('error', () => undefined);
    s.resume();
    s.on('close', () => closedAt.push(performance.now() - started));
    if (head) s.write(head);
    sockets.push(s);
  }
  const timer = dripMs
    ? setInterval(() => {
        for (const s of sockets) if (s.writable) s.write('X');
      }, dripMs)
    : undefined;
  const stop = () => {
    clearInterval(timer);
    for (const s of sockets) s.destroy();
  };
  return { sockets, closedAt, started, stop };
}
