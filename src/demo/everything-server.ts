import { McpServer } from '../server/server.js';
import type { ServerOptions } from '../server/server.js';
import { registerEverythingApps } from './everything-apps.js';
import { registerEverythingContent } from './everything-content.js';
import {
  describeElicitation,
  objectSchema,
  pause,
  registerEverythingExtras,
  sampledText,
} from './everything-extras.js';
import { TINY_PNG_BASE64, TINY_WAV_BASE64 } from './everything-media.js';
import { registerEverythingModern } from './everything-modern.js';
import { registerEverythingSkills } from './everything-skills.js';
import { registerEverythingTasks } from './everything-tasks.js';

export interface EverythingServerOptions extends ServerOptions {
  /** Server name and version (default `mcpkit-everything` 0.1.0). */
  name?: string;
  version?: string;
  /** Pause between the steps of the logging, progress and counting tools (default 50 ms). */
  stepMs?: number;
}

export { WATCHED_RESOURCE_URI } from './everything-content.js';

/**
 * The demo "everything" server: every tool, resource, prompt and completion the official
 * conformance suite calls, plus a few extras (`add`, `echo`, `slow_count`, `plan_trip`,
 * `list_roots`, `weather_agent`, `toggle_bonus_tool`, `touch_watched_resource`) that make a
 * good interactive demo. One instance serves any number of connections in both protocol
 * eras.
 *
 * @example
 * ```ts
 * const server = createEverythingServer();
 * await server.connect(new StdioServerTransport());
 * ```
 */
export function createEverythingServer(options: EverythingServerOptions = {}): McpServer {
  const { name, version, stepMs = 50, ...serverOptions } = options;
  const server = new McpServer(
    { name: name ?? 'mcpkit-everything', version: version ?? '0.1.0' },
    {
      instructions:
        'A demo server that exercises every MCP feature: content types, logging, progress, ' +
        'sampling, elicitation, resources, subscriptions, prompts and completion.',
      ...serverOptions,
    },
  );

  // ---------------------------------------------------------------- content tools

  server.tool(
    { name: 'test_simple_text', description: 'Returns simple text content', input: objectSchema() },
    () => 'This is a simple text response for testing.',
  );

  server.tool(
    { name: 'test_image_content', description: 'Returns a PNG image', input: objectSchema() },
    () => ({ content: [{ type: 'image', data: TINY_PNG_BASE64, mimeType: 'image/png' }] }),
  );

  server.tool(
    { name: 'test_audio_content', description: 'Returns a WAV audio clip', input: objectSchema() },
    () => ({ content: [{ type: 'audio', data: TINY_WAV_BASE64, mimeType: 'audio/wav' }] }),
  );

  server.tool(
    {
      name: 'test_embedded_resource',
      description: 'Returns an embedded resource',
      input: objectSchema(),
    },
    () => ({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    }),
  );

  server.tool(
    {
      name: 'test_multiple_content_types',
      description: 'Returns text, an image and an embedded resource',
      input: objectSchema(),
    },
    () => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: TINY_PNG_BASE64, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  );

  server.tool(
    {
      name: 'test_error_handling',
      description: 'Always fails, as a tool error result',
      input: objectSchema(),
    },
    () => {
      // A thrown Error becomes an `isError: true` result, never a JSON-RPC error.
      throw new Error('This tool intentionally returns an error for testing');
    },
  );

  // ---------------------------------------------------------------- notifications during a call

  server.tool(
    {
      name: 'test_tool_with_logging',
      description: 'Sends three info log messages while it runs',
      input: objectSchema(),
    },
    async (_args, ctx) => {
      ctx.log('info', 'Tool execution started');
      await pause(stepMs, ctx.signal);
      ctx.log('info', 'Tool processing data');
      await pause(stepMs, ctx.signal);
      ctx.log('info', 'Tool execution completed');
      return 'Tool with logging executed successfully';
    },
  );

  server.tool(
    {
      name: 'test_tool_with_progress',
      description: 'Reports progress 0, 50 and 100 of 100',
      input: objectSchema(),
    },
    async (_args, ctx) => {
      ctx.progress(0, 100);
      await pause(stepMs, ctx.signal);
      ctx.progress(50, 100);
      await pause(stepMs, ctx.signal);
      ctx.progress(100, 100);
      return 'Tool with progress executed successfully';
    },
  );

  // ---------------------------------------------------------------- asking the client

  server.tool(
    {
      name: 'test_sampling',
      description: "Asks the client's LLM to answer a prompt",
      input: objectSchema({ prompt: { type: 'string', description: 'The prompt to send' } }, ['prompt']),
    },
    async (args, ctx) => {
      const answer = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: String(args.prompt) } }],
        maxTokens: 100,
      });
      return `LLM response: ${sampledText(answer)}`;
    },
  );

  server.tool(
    {
      name: 'test_elicitation',
      description: 'Asks the user for a username and an email address',
      input: objectSchema({ message: { type: 'string', description: 'What to ask the user' } }, ['message']),
    },
    async (args, ctx) => {
      const answer = await ctx.elicit({
        message: String(args.message),
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
      });
      return describeElicitation('User response', answer);
    },
  );

  server.tool(
    {
      name: 'test_elicitation_sep1034_defaults',
      description: 'Elicits a form whose fields all have default values (SEP-1034)',
      input: objectSchema(),
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Please review and update the form fields with defaults',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: {
              type: 'string',
              description: 'User status',
              enum: ['active', 'inactive', 'pending'],
              default: 'active',
            },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
        },
      });
      return describeElicitation('Elicitation completed', answer);
    },
  );

  server.tool(
    {
      name: 'test_elicitation_sep1330_enums',
      description: 'Elicits every kind of enum field (SEP-1330)',
      input: objectSchema(),
    },
    async (_args, ctx) => {
      const options = ['option1', 'option2', 'option3'];
      const titled = (word: string) =>
        ['First', 'Second', 'Third'].map((n, i) => ({
          const: `value${i + 1}`,
          title: `${n} ${word}`,
        }));
      const answer = await ctx.elicit({
        message: 'Please select options from the enum fields',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: { type: 'string', description: 'Select one option', enum: options },
            titledSingle: {
              type: 'string',
              description: 'Select one option with titles',
              oneOf: titled('Option'),
            },
            legacyEnum: {
              type: 'string',
              description: 'Select one option (legacy)',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: {
              type: 'array',
              description: 'Select multiple options',
              items: { type: 'string', enum: options },
            },
            titledMulti: {
              type: 'array',
              description: 'Select multiple options with titles',
              items: { anyOf: titled('Choice') },
            },
          },
        },
      });
      return describeElicitation('Elicitation completed', answer);
    },
  );

  // ---------------------------------------------------------------- JSON Schema 2020-12

  server.tool(
    {
      name: 'json_schema_2020_12_tool',
      description: 'Tool with JSON Schema 2020-12 features',
      // Listed verbatim: $schema, $defs and additionalProperties survive (SEP-1613), and so
      // do $anchor, allOf/anyOf and if/then/else (SEP-2106).
      input: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: {
            $anchor: 'addressDef',
            type: 'object',
            properties: { street: { type: 'string' }, city: { type: 'string' } },
          },
        },
        properties: {
          name: { type: 'string' },
          address: { $ref: '#/$defs/address' },
          contactMethod: { type: 'string', enum: ['phone', 'email'] },
          phone: { type: 'string' },
          email: { type: 'string' },
        },
        allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
        if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
        then: { required: ['phone'] },
        else: { required: ['email'] },
        additionalProperties: false,
      },
    },
    (args) => `Received: ${JSON.stringify(args)}`,
  );

  registerEverythingExtras(server, stepMs);
  registerEverythingContent(server);
  registerEverythingModern(server, stepMs);
  registerEverythingSkills(server);
  registerEverythingTasks(server);
  registerEverythingApps(server);
  return server;
}
