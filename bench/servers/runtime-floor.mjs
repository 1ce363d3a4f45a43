// The floor of bench/runtimes.mjs: the least an MCP server over HTTP can do on each runtime,
// on the same HTTP server the fixture uses there (node:http on Node, Bun.serve, Deno.serve).
// It parses the JSON-RPC body and answers `initialize`, notifications (202) and a
// `tools/call` of `echo` with one JSON body: no validation, no sessions, no SSE. What mcpkit
// costs above it on a runtime is mcpkit's; what it costs on one runtime beside another is
// the runtime's. Prints `listening <url>` like the fixtures; `--port N`.
const args = globalThis.Deno?.args ?? globalThis.process?.argv?.slice(2) ?? [];
const i = args.indexOf('--port');
const port = i >= 0 ? Number(args[i + 1]) : 0;
const hostname = '127.0.0.1';
const JSON_HEADERS = { 'content-type': 'application/json' };

/** The answer to one message body: [status, body or undefined, extra headers]. */
function answer(text) {
  const msg = JSON.parse(text);
  if (msg.id === undefined) return [202, undefined, {}];
  if (msg.method === 'initialize') {
    const result = {
      protocolVersion: msg.params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: 'floor', version: '1.0.0' },
    };
    return [200, JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }), { 'mcp-session-id': 'floor' }];
  }
  const content = [{ type: 'text', text: msg.params?.arguments?.text ?? '' }];
  return [200, JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { content } }), {}];
}

async function fetchHandler(request) {
  const [status, body, headers] = answer(await request.text());
  return new Response(body ?? null, { status, headers: body ? { ...JSON_HEADERS, ...headers } : headers });
}

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
      const [status, body, headers] = answer(text);
      res.writeHead(status, body ? { ...JSON_HEADERS, ...headers } : headers);
      res.end(body);
    });
  });
  await new Promise((resolve) => server.listen(port, hostname, resolve));
  url = `http://${hostname}:${server.address().port}/mcp`;
}
console.log(`listening ${url}`);
