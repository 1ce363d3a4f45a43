/**
 * Embedding the mcpkit host: four servers from one config file (our demo server, the
 * official server-everything and server-filesystem as child processes, and a small notes
 * server over Streamable HTTP), one policy, one catalog, an audit log, an agent loop, a
 * server asking the LLM for a completion, and the whole catalog served as one gateway.
 *
 * Run (after `npm run build`):
 *   npx tsx examples/host/embed.ts              you approve in the terminal and type the model's answers
 *   npx tsx examples/host/embed.ts --scripted   no questions: a scripted person and a scripted model
 *
 * No network and no API key are needed. To use a real model instead, add an `llm` section
 * to the config (see `mcpkit.llm` in the host's docs) and drop the `llm` option below.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from 'mcpkit';
import { StreamableHttpClientTransport } from 'mcpkit/http-client';
import { McpServer } from 'mcpkit';
import { serve } from 'mcpkit/http-server';
import {
  Agent,
  Gateway,
  Host,
  InteractiveProvider,
  ScriptedProvider,
  ScriptedUi,
  textAnswer,
} from 'mcpkit/host';
import { TerminalUi, fileAudit, loadHostConfig } from 'mcpkit/host/node';
import type { AgentStep, AuditEntry, HostUi, LlmProvider } from 'mcpkit/host';

const scripted = process.argv.includes('--scripted') || !process.stdin.isTTY;
const say = (line: string): void => console.log(line);
const resolve = (specifier: string): string => fileURLToPath(import.meta.resolve(specifier));

// ---------------------------------------------------------------- a workspace and an HTTP server

const work = mkdtempSync(join(tmpdir(), 'mcpkit-host-example-'));
writeFileSync(join(work, 'todo.txt'), 'water the plants\nfile the tax return\n');

const notes = new McpServer({ name: 'notes', version: '1.0.0' });
const saved: string[] = [];
notes.tool(
  {
    name: 'add_note',
    description: 'Saves a short note',
    input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  (args) => {
    saved.push(String(args.text));
    return `Saved note #${saved.length}`;
  },
);
const notesHttp = await serve(notes, { port: 0 });

// ---------------------------------------------------------------- the config file, as an app would write it

const configPath = join(work, 'mcp.json');
writeFileSync(
  configPath,
  JSON.stringify(
    {
      mcpServers: {
        demo: {
          command: process.execPath,
          args: [resolve('mcpkit/package.json').replace(/package\.json$/, 'dist/demo/everything-stdio.js')],
        },
        everything: {
          command: process.execPath,
          args: [resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
          era: 'legacy',
        },
        files: {
          command: process.execPath,
          args: [resolve('@modelcontextprotocol/server-filesystem/dist/index.js'), '${WORK}'],
          era: 'legacy',
          roots: ['${WORK}'],
          policy: { default: 'allow', tools: { write_file: 'deny', edit_file: 'deny', move_file: 'deny' } },
        },
        notes: { url: notesHttp.url, policy: { default: 'ask' }, rateLimit: { calls: 10, perMs: 60000 } },
      },
      mcpkit: { roots: ['${WORK}'] },
    },
    null,
    2,
  ),
);
const config = await loadHostConfig(configPath, { env: { ...process.env, WORK: work } });

// ---------------------------------------------------------------- who answers: a person, or a script

const todo = join(work, 'todo.txt');
let ui: HostUi;
let llm: LlmProvider;
if (scripted) {
  ui = new ScriptedUi({
    confirmCommand: (r) => (say(`[consent] start "${r.server}": ${r.commandLine} → yes`), true),
    approveTool: (r) => (
      say(
        `[approve] ${r.caller} → ${r.server}/${r.tool} ${JSON.stringify(r.arguments)} (${r.reason}) → once`,
      ),
      'once'
    ),
    reviewSampling: (r) => (
      say(
        `[sampling] "${r.server}" asks ${r.model}: ${JSON.stringify(r.params.messages[0]?.content)} → approve`,
      ),
      { action: 'approve' }
    ),
  });
  llm = new ScriptedProvider([
    // The agent's turns: read the file, then add two numbers and save a note at once, then answer.
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 't1', name: 'files__read_text_file', input: { path: todo } }],
      model: '',
      stopReason: 'toolUse',
    },
    {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 't2', name: 'everything__get-sum', input: { a: 2, b: 3 } },
        { type: 'tool_use', id: 't3', name: 'notes__add_note', input: { text: 'water the plants' } },
        { type: 'tool_use', id: 't4', name: 'files__write_file', input: { path: todo, content: '' } },
      ],
      model: '',
      stopReason: 'toolUse',
    },
    textAnswer('Your list says to water the plants and file the tax return; 2 + 3 = 5; I saved a note.'),
    // The demo server's own sampling request (test_sampling).
    textAnswer('Hello from the host model!'),
  ]);
} else {
  ui = new TerminalUi();
  llm = new InteractiveProvider(ui);
}

// ---------------------------------------------------------------- the host

const auditPath = join(work, 'audit.jsonl');
const host = new Host(config, {
  ui,
  audit: fileAudit(auditPath),
  llm: { provider: llm, model: scripted ? 'scripted-model' : 'you' },
});
host.on('health', (h) =>
  say(`[health] ${h.name}: ${h.state}${h.lastError ? ` (${h.lastError.split('\n')[0]})` : ''}`),
);
host.on('notice', (n) => say(`[notice] ${n.server ?? 'host'}: ${n.message}`));

try {
  await host.start();
  const counts = Object.keys(config.servers).map(
    (s) => `${s} ${host.catalog.usableTools().filter((t) => t.server === s).length}`,
  );
  const examples = ['demo__echo', 'everything__echo', 'files__read_text_file', 'notes__add_note'];
  say(`[catalog] ${host.llmTools().length} tools: ${counts.join(', ')}; e.g. ${examples.join(', ')}`);

  // The agent loop: the model picks tools from the catalog; the policy decides; results go back.
  const agent = new Agent(host, {
    provider: llm,
    system: 'You help with files and notes.',
    onStep: printStep,
  });
  const { text } = await agent.run('What is on my todo list? Also add 2 and 3, and save a note.');
  say(`[answer] ${text}`);

  // A server asking the host's LLM (sampling), approved by the person.
  const sampled = await host.callTool('demo__test_sampling', { prompt: 'Say hello' }, { caller: 'app' });
  say(`[sampling] the server got: ${sampled.content.map((c) => (c.type === 'text' ? c.text : '')).join('')}`);

  // The same catalog as one MCP server for other clients.
  const gateway = new Gateway(host);
  const endpoint = await gateway.serveHttp();
  const client = new Client({ name: 'gateway-user', version: '1.0.0' });
  await client.connect(new StreamableHttpClientTransport({ url: endpoint.url }));
  const { tools } = await client.listTools();
  const echoed = await client.callTool({ name: 'demo__echo', arguments: { text: 'through the gateway' } });
  say(
    `[gateway] ${endpoint.url} serves ${tools.length} tools; demo__echo → ${echoed.content.map((c) => (c.type === 'text' ? c.text : '')).join('')}`,
  );
  await client.close();
  await gateway.close();
} finally {
  await host.close();
  await notesHttp.close();
}

const audit = readFileSync(auditPath, 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as AuditEntry);
say(`[audit] ${audit.length} entries in ${auditPath}:`);
for (const e of audit) {
  const took = e.durationMs === undefined ? '' : ` ${e.durationMs}ms`;
  say(
    `  ${e.kind} ${e.caller} → ${e.server}/${e.kind === 'start' ? '(command)' : (e.target ?? '')}: ${e.decision}, ${e.outcome}${took}`,
  );
}
say(
  `[done] every server stopped: ${host
    .health()
    .map((h) => `${h.name} ${h.state}`)
    .join(', ')}`,
);

function printStep(step: AgentStep): void {
  if (step.type === 'user') say(`[user] ${step.text}`);
  else if (step.type === 'assistant' && step.toolCalls.length > 0)
    say(`[model] calls ${step.toolCalls.map((c) => `${c.name}(${JSON.stringify(c.input)})`).join(', ')}`);
  else if (step.type === 'tool')
    say(`[tool] ${step.name} → ${step.ok ? 'ok' : 'refused/failed'}: ${step.text.replace(/\n/g, ' | ')}`);
}
