// mcpkit over Streamable HTTP: serve(new McpServer(...)), once per response mode, with the
// same one-line echo tool as the other servers. MCPKIT_DIST points at another build (A/B runs).
import { z } from 'zod';
import { ready } from './http-common.mjs';

const dist = process.env.MCPKIT_DIST ?? new URL('../../dist', import.meta.url).href;
const { McpServer } = await import(`${dist}/index.js`);
const { serve } = await import(`${dist}/serve/index.js`);

const server = new McpServer({ name: 'mcpkit-echo', version: '1.0.0' });
server.tool({ name: 'echo', input: z.object({ text: z.string() }) }, ({ text }) => ({
  content: [{ type: 'text', text }],
}));

const json = await serve(server, { responseMode: 'json' });
const sse = await serve(server, { responseMode: 'sse' });
ready({ json: json.port, sse: sse.port });
