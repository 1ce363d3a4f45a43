// The floor: newline-delimited JSON-RPC with JSON.parse and JSON.stringify and nothing else.
import { createInterface } from 'node:readline';

const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  let result;
  if (m.method === 'initialize') {
    result = {
      protocolVersion: m.params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: 'floor', version: '1' },
    };
  } else if (m.method === 'tools/list') {
    result = {
      tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }],
    };
  } else {
    result = { content: [{ type: 'text', text: m.params.arguments.text }] };
    // A modern request gets what every modern result carries: the cost of size alone.
    if (m.params._meta?.['io.modelcontextprotocol/protocolVersion'] !== undefined) {
      result.resultType = 'complete';
      result._meta = { 'io.modelcontextprotocol/serverInfo': { name: 'floor', version: '1' } };
    }
  }
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }) + '\n');
});
