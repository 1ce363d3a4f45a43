import type { Registration } from '../server/index.js';
import type { McpServer } from '../server/server.js';
import { objectSchema, pause, sampledText } from './everything-extras.js';
import { registerEverythingInputRequired } from './everything-input-required.js';

/**
 * What the demo server offers for the stateless 2026-07-28 era, named as the official
 * conformance suite expects, plus the tools of everything-input-required.ts:
 * - `test_missing_capability` needs sampling: a client that did not declare it gets
 *   MissingRequiredClientCapability (-32021, HTTP 400);
 * - `test_streaming_elicitation` reports progress and then asks the user: the response
 *   stream carries notifications and an `input_required` result, never a request;
 * - `test_logging_tool` logs, which reaches only clients that asked for a log level;
 * - `test_trigger_tool_change` and `test_trigger_prompt_change` publish a new revision of
 *   the `catalog_revision` tool or the `release_notes` prompt, so `subscriptions/listen`
 *   streams hear the list change;
 * - `lookup_account` routes on `tenant`, which clients mirror in the `Mcp-Param-Tenant`
 *   header (`x-mcp-header`, SEP-2243) and the server checks against the body.
 * Every tool works in the legacy era too.
 */
export function registerEverythingModern(server: McpServer, stepMs: number): void {
  registerEverythingInputRequired(server);

  server.tool(
    {
      name: 'test_missing_capability',
      description: "Writes a haiku with the client's LLM; the client must declare sampling",
      input: objectSchema({ topic: { type: 'string' } }),
    },
    async (args, ctx) => {
      const topic = typeof args.topic === 'string' ? args.topic : 'the sea';
      const answer = await ctx.sample(
        {
          messages: [{ role: 'user', content: { type: 'text', text: `Write a haiku about ${topic}.` } }],
          maxTokens: 60,
        },
        { key: 'haiku' },
      );
      return sampledText(answer);
    },
  );

  server.tool(
    {
      name: 'test_streaming_elicitation',
      description: 'Reports progress while it prepares, then asks the user to approve',
      input: objectSchema(),
    },
    async (_args, ctx) => {
      for (let step = 1; step <= 2; step++) {
        ctx.progress(step, 3, `Preparing (${step} of 3)`);
        await pause(stepMs, ctx.signal);
      }
      const answer = await ctx.elicit(
        {
          message: 'Preparation done. Go ahead?',
          requestedSchema: {
            type: 'object',
            properties: { approve: { type: 'boolean' } },
            required: ['approve'],
          },
        },
        { key: 'approval' },
      );
      ctx.progress(3, 3, 'Done');
      return answer.action === 'accept' && answer.content?.approve === true ? 'Approved' : 'Not approved';
    },
  );

  server.tool(
    {
      name: 'test_logging_tool',
      description: 'Logs three messages; clients that set no log level receive none of them',
      input: objectSchema(),
    },
    async (_args, ctx) => {
      for (const step of ['started', 'working', 'finished']) {
        ctx.log('info', `test_logging_tool ${step}`, 'demo');
        await pause(stepMs, ctx.signal);
      }
      return 'Logged three messages';
    },
  );

  // The catalog changes at run time: each trigger publishes a new revision of a companion
  // tool or prompt (same name, new description), so listeners hear the list change while
  // the set of names stays put.
  let toolRevision = 1;
  const publishTool = (): Registration =>
    server.tool(
      {
        name: 'catalog_revision',
        description: `Says which revision of the tool catalog is live (revision ${toolRevision})`,
        input: objectSchema(),
        annotations: { readOnlyHint: true },
      },
      () => `Tool catalog revision ${toolRevision}`,
    );
  let companionTool = publishTool();
  server.tool(
    {
      name: 'test_trigger_tool_change',
      description: 'Publishes a new revision of `catalog_revision` (tools list changed)',
      input: objectSchema(),
    },
    () => {
      companionTool.remove();
      toolRevision++;
      companionTool = publishTool();
      return `catalog_revision is now at revision ${toolRevision}`;
    },
  );

  let promptRevision = 1;
  const publishPrompt = (): Registration =>
    server.prompt(
      {
        name: 'release_notes',
        description: `Drafts release notes for catalog revision ${promptRevision}`,
      },
      () => [
        {
          role: 'user',
          content: { type: 'text', text: 'Draft release notes for the changes in the current catalog.' },
        },
      ],
    );
  let companionPrompt = publishPrompt();
  server.tool(
    {
      name: 'test_trigger_prompt_change',
      description: 'Publishes a new revision of the `release_notes` prompt (prompts list changed)',
      input: objectSchema(),
    },
    () => {
      companionPrompt.remove();
      promptRevision++;
      companionPrompt = publishPrompt();
      return `release_notes is now at revision ${promptRevision}`;
    },
  );

  server.tool(
    {
      name: 'lookup_account',
      description:
        'Looks up an account in a tenant; `tenant` travels in the Mcp-Param-Tenant header too, so gateways can route on it',
      input: objectSchema(
        {
          tenant: { type: 'string', description: 'The tenant to search', 'x-mcp-header': 'Tenant' },
          account: { type: 'string', description: 'Account name (default: all)' },
        },
        ['tenant'],
      ),
      annotations: { readOnlyHint: true },
    },
    (args) => {
      const account = typeof args.account === 'string' ? args.account : 'every account';
      return `Tenant ${JSON.stringify(args.tenant)}: no match for ${account}`;
    },
  );
}
