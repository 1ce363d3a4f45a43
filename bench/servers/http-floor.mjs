// The HTTP floor: bare node:http, JSON.parse and JSON.stringify and nothing more. It keeps
// a legacy session per initialize (an id and what the client sent) so the idle-session
// figures have a floor too. One port answers with JSON, the other with a one-event SSE body.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { readBody, ready } from './http-common.mjs';

const sessions = new Map();

function answer(m) {
  if (m.method === 'initialize') {
    return {
      protocolVersion: m.params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: 'floor', version: '1' },
    };
  }
  if (m.method === 'tools/list') {
    return {
      tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }],
    };
  }
  const result = { content: [{ type: 'text', text: m.params.arguments.text }] };
  // A modern (2026-07-28) request gets what every modern result carries, so the floor
  // shows what the larger messages alone cost.
  if (m.params._meta?.['io.modelcontextprotocol/protocolVersion'] !== undefined) {
    result.resultType = 'complete';
    result._meta = { 'io.modelcontextprotocol/serverInfo': { name: 'floor', version: '1' } };
  }
  return result;
}

function listen(sse) {
  const server = createServer(async (req, res) => {
    if (req.method === 'DELETE') {
      sessions.delete(req.headers['mcp-session-id']);
      res.writeHead(200).end();
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const m = JSON.parse(await readBody(req));
    if (m.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    const headers = {};
    if (m.method === 'initialize') {
      const id = randomUUID();
      sessions.set(id, { version: m.params.protocolVersion, capabilities: m.params.capabilities });
      headers['mcp-session-id'] = id;
    }
    const body = JSON.stringify({ jsonrpc: '2.0', id: m.id, result: answer(m) });
    if (sse) {
      headers['content-type'] = 'text/event-stream';
      res.writeHead(200, headers);
      res.end(`event: message\ndata: ${body}\n\n`);
    } else {
      headers['content-type'] = 'application/json';
      res.writeHead(200, headers);
      res.end(body);
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

ready({ json: await listen(false), sse: await listen(true) });
