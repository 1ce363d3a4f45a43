#!/usr/bin/env node
/**
 * Test-only: a stdio server for `mcpkit lint` and `mcpkit load`, with deliberately
 * non-portable tool schemas and one tool that fails with a JSON-RPC error every other call.
 * Run as `node dist/test-support/lint-fixture-server.js`.
 */
import { WireError } from '../jsonrpc/index.js';
import { McpServer } from '../server/server.js';
import { StdioServerTransport } from '../transports/stdio/index.js';

/** A tool name over every host's 64-character limit. */
export const LONG_NAME = `tool_${'x'.repeat(65)}`;

const server = new McpServer({ name: 'lint-fixture', version: '1.0.0' });

server.tool(
  {
    name: 'clean_tool',
    title: 'Clean tool',
    description: 'Portable everywhere',
    annotations: { readOnlyHint: true },
    input: {
      type: 'object',
      properties: { city: { type: 'string', description: 'A city name' } },
      required: ['city'],
      additionalProperties: false,
    },
  },
  () => 'ok',
);

server.tool(
  {
    name: 'weather.get',
    input: {
      type: 'object',
      properties: {
        where: { oneOf: [{ type: 'string' }, { type: 'number' }] },
        site: { type: 'string', format: 'uri', description: 'A page' },
        unit: { $ref: 'https://example.com/units.json' },
      },
      required: ['where'],
    },
  },
  () => 'sunny',
);

server.tool({ name: LONG_NAME, description: 'A long name', input: { type: 'object' } }, () => 'ok');

server.tool(
  {
    name: 'structured_reader',
    title: 'Structured reader',
    description: 'Returns structuredContent without declaring an outputSchema',
    annotations: { readOnlyHint: true },
    input: { type: 'object', additionalProperties: false },
  },
  () => ({ content: [{ type: 'text', text: '{"n":1}' }], structuredContent: { n: 1 } }),
);

let calls = 0;
server.tool(
  {
    name: 'flaky',
    description: 'Fails with JSON-RPC error -32001 on every other call',
    input: { type: 'object' },
  },
  () => {
    calls++;
    if (calls % 2 === 0) throw new WireError(-32001, 'busy');
    return 'ok';
  },
);

await server.connect(new StdioServerTransport());
