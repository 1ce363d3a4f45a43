import { TARGET_HELP } from '../connection.js';

/** Kept apart from the command, which is loaded only when it runs. */
export const inspectHelp = `Usage: mcpkit inspect [--port N] [--open] <target>

A web inspector for MCP servers, on 127.0.0.1: the servers and their health, tools with
forms built from their schemas, results by content type, MCP App views, resources and
subscriptions, prompts, elicitation and sampling answered in the page, the live log and
every JSON-RPC message. It prints the URL to open, with a random access token.

With --config FILE and no --server, every server of the config is inspected.

Options:
  --port N      the port (default 0: any free port)
  --open        open the page in the default browser

Deep links: append &tool=NAME&args=<URL-encoded JSON>&run=1 to the printed URL to open
that tool and run it.

${TARGET_HELP}

Examples:
  mcpkit inspect -- npx @modelcontextprotocol/server-everything
  mcpkit inspect --url http://127.0.0.1:3000/mcp --open
  mcpkit inspect --config .mcp.json`;
