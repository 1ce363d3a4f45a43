// The upstream of bench/gateway.mjs: mcpkit's one-tool echo server over Streamable HTTP with
// default options (both eras), so a client reaches it directly or through a proxy alike.
import { z } from 'zod';
import { ready } from './http-common.mjs';

const dist = process.env.MCPKIT_DIST ?? new URL('../../dist', import.meta.url).href;
const { McpServer } = await import(`${dist}/index.js`);
const { serve } = await import(`${dist}/serve/index.js`);

const server = new McpServer({ name: 'echo', version: '1.0.0' });
server.tool({ name: 'echo', input: z.object({ text: z.string() }) }, ({ text }) => ({
  content: [{ type: 'text', text }],
}));
ready({
  port: (await serve(server, process.env.ECHO_MODE ? { responseMode: process.env.ECHO_MODE } : {})).port,
});
