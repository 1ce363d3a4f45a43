// mcpkit with the echo tool declared in raw JSON Schema: no schema library to load.
// MCPKIT_DIST points at another build (A/B runs).
const dist = process.env.MCPKIT_DIST ?? new URL('../../dist', import.meta.url).href;
const { McpServer } = await import(`${dist}/index.js`);
const { StdioServerTransport } = await import(`${dist}/transports/stdio/index.js`);

const server = new McpServer({ name: 'mcpkit-echo', version: '1.0.0' });
server.tool(
  {
    name: 'echo',
    input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  (args) => ({ content: [{ type: 'text', text: String(args.text) }] }),
);
await server.connect(new StdioServerTransport());
