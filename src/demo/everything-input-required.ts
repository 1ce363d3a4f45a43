import type { McpServer } from '../server/server.js';
import type { ElicitRequestParams } from '../protocol/types/elicitation.js';
import { objectSchema, sampledText } from './everything-extras.js';

/** A form with one required string field. */
function askFor(message: string, field: string): ElicitRequestParams {
  return {
    message,
    requestedSchema: { type: 'object', properties: { [field]: { type: 'string' } }, required: [field] },
  };
}

const NAME_FORM = askFor('What is your name?', 'name');

/**
 * Tools and a prompt that ask the client for input, named as the official conformance
 * suite's `input-required-result-*` scenarios expect. Each is written once with
 * `ctx.elicit`, `ctx.sample`, `ctx.listRoots` or `ctx.ask`, and works in both eras: an
 * `input_required` round trip in 2026-07-28, server-to-client requests before. They show
 * the ways a handler asks: one question under a key of its choosing, several in one round,
 * one round after another, and only what the client can answer.
 */
export function registerEverythingInputRequired(server: McpServer): void {
  server.tool(
    {
      name: 'test_input_required_result_elicitation',
      description: 'Asks the user their name (key `user_name`) and greets them',
      input: objectSchema(),
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit(NAME_FORM, { key: 'user_name' });
      if (answer.action !== 'accept') return `No name given (${answer.action})`;
      return `Hello, ${String(answer.content?.name ?? 'stranger')}!`;
    },
  );

  server.tool(
    {
      name: 'test_input_required_result_sampling',
      description: "Asks the client's LLM a question and returns its answer",
      input: objectSchema(),
    },
    async (_args, ctx) => {
      const answer = await ctx.sample(
        {
          messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
          maxTokens: 50,
        },
        { key: 'capital_question' },
      );
      return `The model answered: ${sampledText(answer)}`;
    },
  );

  server.tool(
    {
      name: 'test_input_required_result_list_roots',
      description: "Lists the client's roots",
      input: objectSchema(),
    },
    async (_args, ctx) => {
      const { roots } = await ctx.listRoots({ key: 'client_roots' });
      return roots.length === 0
        ? 'The client has no roots'
        : `Roots: ${roots.map((r) => (r.name ? `${r.name} (${r.uri})` : r.uri)).join(', ')}`;
    },
  );

  server.tool(
    {
      name: 'test_input_required_result_request_state',
      description:
        'Asks for a confirmation; the answer comes back with the signed requestState, which the server verifies ("state-ok")',
      input: objectSchema(),
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit(
        {
          message: 'Please confirm',
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
        },
        { key: 'confirm' },
      );
      const confirmed = answer.action === 'accept' && answer.content?.ok === true;
      // Past the first round, the server has verified the requestState the client echoed.
      const state = ctx.inputRound > 1 ? 'state-ok' : 'answered in place';
      return `${confirmed ? 'Confirmed' : 'Not confirmed'} (${state})`;
    },
  );

  server.tool(
    {
      name: 'test_input_required_result_multiple_inputs',
      description: 'Asks for a name, an LLM greeting and the roots in one round',
      input: objectSchema(),
    },
    async (_args, ctx) => {
      const { user_name, greeting, client_roots } = await ctx.ask({
        user_name: { method: 'elicitation/create', params: NAME_FORM },
        greeting: {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
            maxTokens: 50,
          },
        },
        client_roots: { method: 'roots/list', params: {} },
      });
      const name = user_name.action === 'accept' ? String(user_name.content?.name) : 'stranger';
      return `${sampledText(greeting)}, ${name}! You have ${client_roots.roots.length} root(s).`;
    },
  );

  server.tool(
    {
      name: 'test_input_required_result_multi_round',
      description: 'Asks for a name, then (next round) a favourite colour',
      input: objectSchema(),
    },
    async (_args, ctx) => {
      const step1 = await ctx.elicit(askFor('Step 1: What is your name?', 'name'), { key: 'step1' });
      if (step1.action !== 'accept') return `Stopped at step 1 (${step1.action})`;
      const step2 = await ctx.elicit(askFor('Step 2: What is your favorite color?', 'color'), {
        key: 'step2',
      });
      if (step2.action !== 'accept') return `Stopped at step 2 (${step2.action})`;
      return `${String(step1.content?.name)} likes ${String(step2.content?.color)}`;
    },
  );

  server.tool(
    {
      name: 'test_input_required_result_tampered_state',
      description: 'Asks for a confirmation; a retry whose requestState was altered is refused (-32602)',
      input: objectSchema(),
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit(
        {
          message: 'Proceed?',
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
        },
        { key: 'proceed' },
      );
      return answer.action === 'accept' ? 'Proceeding' : `Not proceeding (${answer.action})`;
    },
  );

  server.tool(
    {
      name: 'test_input_required_result_capabilities',
      description: 'Asks only what the client declared it can answer (elicitation, sampling, roots)',
      input: objectSchema(),
    },
    async (_args, ctx) => {
      const questions: Parameters<typeof ctx.ask>[0] = {};
      if (ctx.clientSupports('elicitation'))
        questions.user_name = { method: 'elicitation/create', params: NAME_FORM };
      if (ctx.clientSupports('sampling')) {
        questions.greeting = {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
            maxTokens: 50,
          },
        };
      }
      if (ctx.clientSupports('roots')) questions.client_roots = { method: 'roots/list', params: {} };
      if (Object.keys(questions).length === 0) return 'The client can answer nothing, so nothing was asked';
      const answers = await ctx.ask(questions);
      return `Answered: ${Object.keys(answers).join(', ')}`;
    },
  );

  server.prompt(
    {
      name: 'test_input_required_result_prompt',
      description: 'A prompt that asks the user what context to use before it is built',
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit(askFor('What context should the prompt use?', 'context'), {
        key: 'user_context',
      });
      const context = answer.action === 'accept' ? String(answer.content?.context) : 'none';
      return [
        {
          role: 'user',
          content: { type: 'text', text: `Using the context "${context}", summarise what matters most.` },
        },
      ];
    },
  );
}
