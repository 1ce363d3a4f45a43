// The floor of bench/runtimes.mjs: the least an MCP server over HTTP can do on each runtime,
// on the same HTTP server the fixture uses there (node:http on Node, Bun.serve, Deno.serve).
// It answers as runtime-floor-handler.mjs says (`initialize` with a session id, notifications
// with 202, a `tools/call` of `echo` with one JSON body; no validation, no sessions, no SSE);
// workerd serves the same answers as a Worker (runtime-floor-worker.mjs). What mcpkit
// costs above it on a runtime is mcpkit's; what it costs on one runtime beside another is
// the runtime's. Prints `listening <url>` like the fixtures; `--port N`.
import { answer, fetchHandler } from './runtime-floor-handler.mjs';

const args = globalThis.Deno?.args ?? globalThis.process?.argv?.slice(2) ?? [];
const i = args.indexOf('--port');
const port = i >= 0 ? Number(args[i + 1]) : 0;
const hostname = '127.0.0.1';

let url;
if (globalThis.Bun) {
  const server = globalThis.Bun.serve({ hostname, port, fetch: fetchHandler, idleTimeout: 0 });
  url = `http://${hostname}:${server.port}/mcp`;
} else if (globalThis.Deno) {
  url = await new Promise((resolve) => {
    globalThis.Deno.serve(
      { hostname, port, onListen: ({ port: bound }) => resolve(`http://${hostname}:${bound}/mcp`) },
      fetchHandler,
    );
  });
} else {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      if (req.method === 'DELETE') return res.writeHead(204).end();
      const [status, body, headers] = answer(text);
      res.writeHead(status, headers);
      res.end(body);
    });
  });
  await new Promise((resolve) => server.listen(port, hostname, resolve));
  url = `http://${hostname}:${server.address().port}/mcp`;
}
console.log(`listening ${url}`);
