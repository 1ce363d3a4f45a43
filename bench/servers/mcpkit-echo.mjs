// mcpkit with the same one-line echo tool. MCPKIT_DIST points at another build (A/B runs).
import { z } from 'zod';

const dist = process.env.MCPKIT_DIST ?? new URL('../../dist', import.meta.url).href;
const { McpServer } = await import(`${dist}/index.js`);
const { StdioServerTransport } = await import(`${dist}/transports/stdio/index.js`);

const server = new McpServer({ name: 'mcpkit-echo', version: '1.0.0' });
server.tool({ name: 'echo', input: z.object({ text: z.string() }) }, ({ text }) => ({
  content: [{ type: 'text', text }],
}));
await server.connect(new StdioServerTransport());
