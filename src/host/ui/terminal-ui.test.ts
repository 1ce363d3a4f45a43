/**
 * The terminal UI, driven through streams as a person at a terminal would: consent,
 * approvals, a form validated field by field, a URL, and typing the model's answer.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { InteractiveProvider } from '../llm/llm.js';
import { TerminalUi } from './terminal-ui.js';

function terminal(...answers: string[]): { ui: TerminalUi; screen: () => string } {
  const input = new PassThrough();
  const output = new PassThrough();
  let screen = '';
  output.on('data', (c: Buffer) => (screen += c.toString()));
  input.write(answers.map((a) => a + '\n').join(''));
  return { ui: new TerminalUi({ input, output }), screen: () => screen };
}

describe('TerminalUi', () => {
  test('consent shows the exact command and warnings; Enter refuses', async () => {
    const { ui, screen } = terminal('', 'y');
    const request = {
      server: 'x',
      commandLine: "sudo rm -rf '/'",
      command: 'sudo',
      args: [],
      cwd: undefined,
      env: [{ name: 'TOKEN', value: '(hidden, 4 characters)' }],
      warnings: ['runs with sudo (administrator rights)'],
    };
    assert.equal(await ui.confirmCommand(request), false);
    assert.equal(await ui.confirmCommand(request), true);
    ui.close();
    assert.match(
      screen(),
      /It runs this command on your computer, with your privileges:\n {2}sudo rm -rf '\/'\n {2}with TOKEN=\(hidden, 4 characters\)\n {2}! runs with sudo/,
    );
  });

  test('tool approval: once, always, deny; escapes in server text are neutralized', async () => {
    const { ui, screen } = terminal('o', 'a', 'whatever');
    const r = {
      server: 'evil',
      tool: 'add',
      alias: 'evil__add',
      caller: 'agent',
      arguments: { a: 1 },
      definition: {
        name: 'add',
        description: 'Adds\u001b[2J numbers',
        inputSchema: { type: 'object' as const },
      },
      reason: 'flagged' as const,
      previous: undefined,
      warnings: [{ field: 'description', message: 'contains control characters or terminal escapes' }],
    };
    assert.equal(await ui.approveTool(r), 'once');
    assert.equal(await ui.approveTool(r), 'always');
    assert.equal(await ui.approveTool(r), 'deny');
    ui.close();
    assert.ok(!screen().includes('\u001b'));
    assert.match(screen(), /description: Adds\\u\{1b\}\[2J numbers/);
    assert.match(screen(), /Its definition looks suspicious:\n {4}- description contains control characters/);
  });

  test('a form is rendered field by field and each answer is checked against the schema', async () => {
    const { ui, screen } = terminal('f', 'x', '', 'ada@example.com', 'abc', '200', '36', '2', 'maybe', 'y');
    const result = await ui.elicitForm({
      server: 'shop',
      message: 'Your details',
      schema: {
        type: 'object',
        properties: {
          name: { type: 'string', title: 'Name', minLength: 2, default: 'Ada' },
          email: { type: 'string', format: 'email' },
          age: { type: 'integer', minimum: 0, maximum: 150 },
          size: {
            type: 'string',
            oneOf: [
              { const: 's', title: 'Small' },
              { const: 'l', title: 'Large' },
            ],
          },
          news: { type: 'boolean' },
        },
        required: ['email', 'age', 'size', 'news'],
      },
    });
    ui.close();
    assert.deepEqual(result, {
      action: 'accept',
      content: { email: 'ada@example.com', age: 36, size: 'l', news: true },
    });
    const s = screen();
    assert.match(s, /Name \["Ada"\]: x\n {4}must be at least 2 characters\n {2}Name \["Ada"\]: \n/);
    assert.match(s, /age \(required\): abc\n {4}enter a number/);
    assert.match(s, /age \(required\): 200\n {4}must be at most 150/);
    assert.match(s, / {4}1\. Small\n {4}2\. Large/);
    assert.match(s, /news \(required\): maybe\n {4}answer y or n/);
  });

  test('a URL is shown in full with its domain highlighted; typing the model answer can call a tool', async () => {
    const { ui, screen } = terminal('y', '/tool files__read {"path":"/tmp/a"}');
    assert.equal(
      await ui.confirmUrl({
        server: 's',
        message: 'Log in',
        url: 'https://xn--exmple-cua.com/a?b=c',
        domain: 'xn--exmple-cua.com',
        warnings: ['the domain uses punycode'],
      }),
      true,
    );
    const llm = new InteractiveProvider(ui);
    const answer = await llm.complete('you', {
      messages: [{ role: 'user', content: { type: 'text', text: 'Read /tmp/a' } }],
      maxTokens: 10,
      tools: [{ name: 'files__read', inputSchema: { type: 'object' } }],
    });
    ui.close();
    assert.match(
      screen(),
      /domain: >>> xn--exmple-cua\.com <<<\n {2}full URL: https:\/\/xn--exmple-cua\.com\/a\?b=c\n {2}! the domain uses punycode/,
    );
    assert.equal(answer.stopReason, 'toolUse');
    assert.deepEqual((answer.content as Array<{ name: string; input: unknown }>)[0]!.input, {
      path: '/tmp/a',
    });
    assert.equal(answer.model, 'you');
  });

  test('at the end of input every question gets the safe default', async () => {
    const input = new PassThrough();
    const ui = new TerminalUi({ input, output: new PassThrough() });
    input.end();
    assert.equal(
      await ui.confirmUrl({ server: 's', message: '', url: 'https://a.b', domain: 'a.b', warnings: [] }),
      false,
    );
    assert.deepEqual(
      await ui.reviewSampling({ server: 's', model: 'm', params: { messages: [], maxTokens: 1 } }),
      { action: 'deny', reason: 'the user said no' },
    );
  });
});
