/**
 * The MCP server the framework examples serve: one tool, `echo`, that says its text back.
 * Its input is a plain JSON Schema, so the examples need no schema library.
 */
import { McpServer } from 'mcpkit';

export function echoServer(name: string): McpServer {
  const server = new McpServer({ name, version: '1.0.0' });
  server.tool(
    {
      name: 'echo',
      description: 'Says the text back',
      input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
    (args) => String((args as { text: string }).text),
  );
  return server;
}

/** The `--port N` of the command line (0, the default, picks a free port). */
export function portArg(): number {
  const i = process.argv.indexOf('--port');
  const port = i === -1 ? 0 : Number(process.argv[i + 1]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port takes a port number');
  return port;
}
