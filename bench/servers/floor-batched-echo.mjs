// The floor at many calls in flight: newline-delimited JSON-RPC with JSON.parse and
// JSON.stringify, answering everything one read brought in one write (as mcpkit does). Answers
// a modern-shaped request (`_meta` with a protocol version) with what every modern result
// carries, so the cost of the larger messages shows on its own.
const decoder = new TextDecoder();
const serverInfo = { name: 'floor', version: '1' };
let pending = '';

process.stdin.on('data', (chunk) => {
  pending += decoder.decode(chunk, { stream: true });
  let out = '';
  let start = 0;
  for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n', start)) {
    const m = JSON.parse(pending.slice(start, nl));
    start = nl + 1;
    if (m.id === undefined) continue;
    let result;
    if (m.method === 'initialize') {
      result = { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo };
    } else if (m.params._meta?.['io.modelcontextprotocol/protocolVersion'] !== undefined) {
      // One literal: on Node 20 a spread that adds keys would cost the floor a hidden class a call.
      result = {
        resultType: 'complete',
        content: [{ type: 'text', text: m.params.arguments.text }],
        _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo },
      };
    } else {
      result = { content: [{ type: 'text', text: m.params.arguments.text }] };
    }
    out += JSON.stringify({ jsonrpc: '2.0', id: m.id, result }) + '\n';
  }
  pending = pending.slice(start);
  if (out !== '') process.stdout.write(out);
});
