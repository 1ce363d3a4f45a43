// The floor's answers (bench/servers/runtime-floor.mjs serves them on Node, Bun and Deno,
// runtime-floor-worker.mjs on workerd): the JSON-RPC body parsed, `initialize` answered with a
// session id, notifications with 202 and a `tools/call` of `echo` with one JSON body; no
// validation, no sessions, no SSE. No top-level side effects: the Worker bundle imports it.
const JSON_HEADERS = { 'content-type': 'application/json' };

/** The answer to one message body: [status, body or undefined, headers]. */
export function answer(text) {
  const msg = JSON.parse(text);
  if (msg.id === undefined) return [202, undefined, {}];
  if (msg.method === 'initialize') {
    const result = {
      protocolVersion: msg.params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: 'floor', version: '1.0.0' },
    };
    const body = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result });
    return [200, body, { ...JSON_HEADERS, 'mcp-session-id': 'floor' }];
  }
  const content = [{ type: 'text', text: msg.params?.arguments?.text ?? '' }];
  return [200, JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { content } }), JSON_HEADERS];
}

/** The floor as a web-standard handler: Bun.serve, Deno.serve and a Worker's fetch. */
export async function fetchHandler(request) {
  // The legacy client's close: DELETE of its session, no body.
  if (request.method === 'DELETE') return new Response(null, { status: 204 });
  const [status, body, headers] = answer(await request.text());
  return new Response(body ?? null, { status, headers });
}
