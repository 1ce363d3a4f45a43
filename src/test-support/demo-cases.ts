/**
 * Test-only support for driving the demo server with clients other than ours: what every
 * demo tool is called with and must answer, and the answers a scripted user and LLM give.
 * (The official SDKs' wire recorder is `sdk-wire-recorder.ts`.)
 *
 * Not part of the public API: nothing outside tests should import this module.
 */
import assert from 'node:assert/strict';
import { formAnswer } from './mcp-harness.js';
import type { Obj } from './mcp-harness.js';
import { TINY_PNG_BASE64, TINY_WAV_BASE64 } from '../demo/everything-media.js';

export type { Obj };

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export const ROOTS = [{ uri: 'file:///home/user/project', name: 'project' }];

/** The files of the demo's skill (everything-skills.ts), listed as resources, sorted. */
export const SKILL_URIS = [
  'skill://demo/tour/SKILL.md',
  'skill://demo/tour/references/tools.md',
  'skill://demo/tour/templates/report.md',
];

/** What the demo server declares beyond the core capabilities: the skills extension. */
export const DEMO_EXTENSIONS = { extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true } } };

/** The text of the first content block of a tool result. */
export const textOf = (r: Obj): string => String((r.content as Obj[])[0]?.text);

/**
 * The scripted LLM: echoes the last user text; when it is offered tools and has not seen a
 * tool result yet, it calls `get_weather` first.
 */
export function sample(params: Obj): Obj {
  const messages = Array.isArray(params.messages) ? (params.messages as Obj[]) : [];
  const last = messages.at(-1)?.content;
  const blocks = (Array.isArray(last) ? last : [last]).filter(isObj);
  const toolResult = blocks.find((b) => b.type === 'tool_result');
  if (Array.isArray(params.tools) && params.tools.length > 0 && !toolResult) {
    return {
      role: 'assistant',
      content: { type: 'tool_use', id: 'call-1', name: 'get_weather', input: { city: 'Oslo' } },
      model: 'scripted-model',
      stopReason: 'toolUse',
    };
  }
  const text = toolResult
    ? String(((toolResult.content as Obj[])[0] ?? {}).text)
    : String(blocks.find((b) => b.type === 'text')?.text ?? '');
  return {
    role: 'assistant',
    content: { type: 'text', text: `Echo: ${text}` },
    model: 'scripted-model',
    stopReason: 'endTurn',
  };
}

/** The scripted user: accepts every form with its defaults, first choices or sample values. */
export function elicit(params: Obj): Obj {
  return { action: 'accept', content: formAnswer(params.requestedSchema) };
}

/** One demo tool: the arguments it is called with and what its result must show. */
export interface ToolCase {
  args: Obj;
  check(result: Obj): void;
}

const text = (expected: string | RegExp) => (r: Obj) => {
  assert.notEqual(r.isError, true, `unexpected tool error: ${textOf(r)}`);
  if (typeof expected === 'string') assert.equal(textOf(r), expected);
  else assert.match(textOf(r), expected);
};

/** The demo tools of everything-modern.ts and everything-input-required.ts. */
const MODERN_TOOL_CASES: Readonly<Record<string, ToolCase>> = {
  test_input_required_result_elicitation: { args: {}, check: text('Hello, name-value!') },
  test_input_required_result_sampling: {
    args: {},
    check: text('The model answered: Echo: What is the capital of France?'),
  },
  test_input_required_result_list_roots: {
    args: {},
    check: text('Roots: project (file:///home/user/project)'),
  },
  // The signed requestState comes back only in the modern era.
  test_input_required_result_request_state: {
    args: {},
    check: text(/^Confirmed \((state-ok|answered in place)\)$/),
  },
  test_input_required_result_multiple_inputs: {
    args: {},
    check: text('Echo: Generate a greeting, name-value! You have 1 root(s).'),
  },
  test_input_required_result_multi_round: { args: {}, check: text('name-value likes color-value') },
  test_input_required_result_tampered_state: { args: {}, check: text('Proceeding') },
  test_input_required_result_capabilities: {
    args: {},
    check: text(/^Answered: (user_name|greeting|client_roots)(, (greeting|client_roots))*$/),
  },
  test_missing_capability: { args: {}, check: text('Echo: Write a haiku about the sea.') },
  test_streaming_elicitation: { args: {}, check: text('Approved') },
  test_logging_tool: { args: {}, check: text('Logged three messages') },
  test_trigger_tool_change: { args: {}, check: text(/^catalog_revision is now at revision \d+$/) },
  test_trigger_prompt_change: { args: {}, check: text(/^release_notes is now at revision \d+$/) },
  catalog_revision: { args: {}, check: text(/^Tool catalog revision \d+$/) },
  lookup_account: {
    args: { tenant: 'acme', account: 'ada' },
    check: text('Tenant "acme": no match for ada'),
  },
};

/** Every tool of the demo server; a tool missing here fails the "call every tool" tests. */
export const TOOL_CASES: Readonly<Record<string, ToolCase>> = {
  ...MODERN_TOOL_CASES,
  test_simple_text: { args: {}, check: text('This is a simple text response for testing.') },
  test_image_content: {
    args: {},
    check: (r) =>
      assert.deepEqual(r.content, [{ type: 'image', data: TINY_PNG_BASE64, mimeType: 'image/png' }]),
  },
  test_audio_content: {
    args: {},
    check: (r) =>
      assert.deepEqual(r.content, [{ type: 'audio', data: TINY_WAV_BASE64, mimeType: 'audio/wav' }]),
  },
  test_embedded_resource: {
    args: {},
    check: (r) =>
      assert.deepEqual((r.content as Obj[])[0]?.resource, {
        uri: 'test://embedded-resource',
        mimeType: 'text/plain',
        text: 'This is an embedded resource content.',
      }),
  },
  test_multiple_content_types: {
    args: {},
    check: (r) =>
      assert.deepEqual(
        (r.content as Obj[]).map((c) => c.type),
        ['text', 'image', 'resource'],
      ),
  },
  test_error_handling: {
    args: {},
    check: (r) => {
      assert.equal(r.isError, true);
      assert.equal(textOf(r), 'This tool intentionally returns an error for testing');
    },
  },
  test_tool_with_logging: { args: {}, check: text('Tool with logging executed successfully') },
  test_tool_with_progress: { args: {}, check: text('Tool with progress executed successfully') },
  test_sampling: { args: { prompt: 'Hello model' }, check: text('LLM response: Echo: Hello model') },
  test_elicitation: {
    args: { message: 'Who are you?' },
    check: text('User response: action=accept, content={"username":"username-value","email":"email-value"}'),
  },
  test_elicitation_sep1034_defaults: {
    args: {},
    check: text(
      'Elicitation completed: action=accept, content={"name":"John Doe","age":30,"score":96,"status":"active","verified":true}',
    ),
  },
  test_elicitation_sep1330_enums: {
    args: {},
    check: text(
      'Elicitation completed: action=accept, content={"untitledSingle":"option1","titledSingle":"value1",' +
        '"legacyEnum":"opt1","untitledMulti":["option1"],"titledMulti":["value1"]}',
    ),
  },
  json_schema_2020_12_tool: {
    args: { name: 'Ada', address: { street: '1 Main St', city: 'Oslo' }, email: 'ada@example.com' },
    check: text(
      'Received: {"name":"Ada","address":{"street":"1 Main St","city":"Oslo"},"email":"ada@example.com"}',
    ),
  },
  add: {
    args: { a: 2, b: 40 },
    check: (r) => {
      text('42')(r);
      assert.deepEqual(r.structuredContent, { sum: 42 });
    },
  },
  echo: { args: { text: 'hello there' }, check: text('hello there') },
  slow_count: { args: { n: 3 }, check: text('Counted to 3') },
  // Closes its response stream on HTTP; over stdio it simply answers.
  test_reconnection: { args: {}, check: text('Reconnection test completed successfully') },
  plan_trip: {
    args: { destination: 'Lima' },
    check: text('3 days in Lima: Echo: Plan a 3-day trip to Lima.'),
  },
  list_roots: { args: {}, check: text('project: file:///home/user/project') },
  weather_agent: {
    args: { question: 'Weather in Oslo?' },
    check: text('The model says: Echo: Sunny and 21°C in Oslo'),
  },
  toggle_bonus_tool: { args: {}, check: text(/^bonus_tool (added|removed)$/) },
  touch_watched_resource: {
    args: {},
    check: text(/^test:\/\/watched-resource is now at revision \d+$/),
  },
  show_counter: { args: { start: 5 }, check: text(/^The counter is at -?\d+\.$/) },
  counter_add: { args: { by: 2 }, check: text(/^The counter is at -?\d+\.$/) },
};

/**
 * The demo's task tools (src/demo/everything-tasks.ts). Several must run as tasks, so the
 * "call every tool" tests leave them to the task tests (src/server/tasks-*.test.ts,
 * src/client/tasks.test.ts, src/demo/interop-sdk-tasks.test.ts).
 */
export const TASK_TOOL_NAMES: readonly string[] = [
  'greet',
  'slow_compute',
  'failing_job',
  'protocol_error_job',
  'confirm_delete',
  'multi_input',
  'test_tool_with_task',
  'research_report',
  'approve_deployment',
  'watch_until_cancelled',
];

/** Every tool the demo lists. */
export const DEMO_TOOL_NAMES: readonly string[] = [...Object.keys(TOOL_CASES), ...TASK_TOOL_NAMES];

/** The demo's prompts: arguments and the first message's text (or content type). */
export const PROMPT_CASES: Readonly<Record<string, { args: Record<string, string>; first: string }>> = {
  test_simple_prompt: { args: {}, first: 'This is a simple prompt for testing.' },
  test_prompt_with_arguments: {
    args: { arg1: 'paris', arg2: 'rome' },
    first: "Prompt with arguments: arg1='paris', arg2='rome'",
  },
  test_prompt_with_embedded_resource: { args: { resourceUri: 'test://static-text' }, first: 'resource' },
  test_prompt_with_image: { args: {}, first: 'image' },
  test_input_required_result_prompt: {
    args: {},
    first: 'Using the context "context-value", summarise what matters most.',
  },
  release_notes: { args: {}, first: 'Draft release notes for the changes in the current catalog.' },
};

/** The first message of a prompt, as {@link PROMPT_CASES} describes it. */
export function firstMessage(result: Obj): string {
  const content = ((result.messages as Obj[])[0]?.content ?? {}) as Obj;
  return content.type === 'text' ? String(content.text) : String(content.type);
}
