/**
 * The default approval UI: questions in a terminal, through `node:readline`. Questions
 * from several servers are asked one at a time; everything a server wrote is made safe to
 * print first (no escape sequences, no invisible characters).
 */
import { createInterface } from 'node:readline';
import type { Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { CreateMessageResult, ElicitResult, ElicitValue } from '../../protocol/types/index.js';
import { choicesOf, parseFieldInput } from './form-schema.js';
import { blocksOf } from '../llm/llm.js';
import { displaySafe } from '../policy/tool-inspection.js';
import type {
  CommandConsentRequest,
  CompletionRequest,
  FormRequest,
  HostUi,
  SamplingResultReview,
  SamplingResultReviewRequest,
  SamplingReview,
  SamplingReviewRequest,
  ToolApproval,
  ToolApprovalRequest,
  UrlConsentRequest,
} from './ui.js';
import { renderMessages } from './terminal-render.js';

/** Options of {@link TerminalUi}. */
export interface TerminalUiOptions {
  /** Default `process.stdin`. */
  input?: Readable;
  /** Default `process.stderr`, so stdout stays free (a stdio gateway speaks MCP there). */
  output?: Writable;
}

/**
 * Asks in the terminal. Each question says which server is asking and what exactly would
 * happen; the safe answer is the default (just pressing Enter refuses).
 *
 * @example
 * ```ts
 * const host = new Host(config, { ui: new TerminalUi() });
 * ```
 */
export class TerminalUi implements HostUi {
  private readonly input: Readable;
  private readonly output: Writable;
  private rl: Interface | undefined;
  private readonly lines: string[] = [];
  private waiting: ((line: string | undefined) => void) | undefined;
  private ended = false;
  private queue: Promise<unknown> = Promise.resolve();
  /** The tools last listed to the person playing the model, so a turn lists only changes. */
  private toolsShown: string | undefined;

  constructor(options: TerminalUiOptions = {}) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stderr;
  }

  confirmCommand(r: CommandConsentRequest, signal?: AbortSignal): Promise<boolean> {
    return this.exclusive(signal, async () => {
      this.heading(`Start a local MCP server for "${safe(r.server)}"?`);
      this.say('It runs this command on your computer, with your privileges:');
      this.say(`  ${safe(r.commandLine, 100_000)}`);
      if (r.cwd) this.say(`  in ${safe(r.cwd)}`);
      for (const e of r.env) this.say(`  with ${safe(e.name)}=${safe(e.value)}`);
      for (const w of r.warnings) this.say(`  ! ${w}`);
      return this.yes(await this.ask('Start it? [y/N] '));
    });
  }

  approveTool(r: ToolApprovalRequest, signal?: AbortSignal): Promise<ToolApproval> {
    return this.exclusive(signal, async () => {
      const what = r.arguments === undefined ? 'Approve the tool' : `${safe(r.caller)} wants to call`;
      this.heading(`${what} "${safe(r.tool)}" of server "${safe(r.server)}"`);
      if (r.alias !== r.tool) this.say(`  (the model knows it as ${r.alias})`);
      if (r.reason === 'changed') this.say('  ! Its definition CHANGED since you approved it.');
      if (r.reason === 'flagged') this.say('  ! Its definition looks suspicious:');
      if (r.reason === 'new-tool') this.say('  This tool is new: approve its definition first.');
      for (const w of r.warnings) this.say(`    - ${w.field} ${w.message}`);
      if (r.previous?.description !== undefined && r.previous.description !== r.definition.description) {
        this.say(`  before: ${safe(r.previous.description, 600)}`);
      }
      if (r.definition.description) this.say(`  description: ${safe(r.definition.description, 1200)}`);
      if (r.arguments !== undefined)
        this.say(`  arguments: ${safe(JSON.stringify(r.arguments, null, 2), 2000).replace(/\n/g, '\n  ')}`);
      const a = (await this.ask('Allow? [o]nce, [a]lways, [D]eny: ')).trim().toLowerCase();
      return a === 'o' || a === 'once' || a === 'y'
        ? 'once'
        : a === 'a' || a === 'always'
          ? 'always'
          : 'deny';
    });
  }

  reviewSampling(r: SamplingReviewRequest, signal?: AbortSignal): Promise<SamplingReview> {
    return this.exclusive(signal, async () => {
      this.heading(`Server "${safe(r.server)}" asks the LLM (${safe(r.model)}) for a completion`);
      if (r.params.systemPrompt) this.say(`  system: ${safe(r.params.systemPrompt, 800)}`);
      this.say(renderMessages(r.params.messages));
      if (r.params.tools?.length)
        this.say(`  tools offered: ${r.params.tools.map((t) => safe(t.name)).join(', ')}`);
      this.say(`  up to ${r.params.maxTokens} tokens`);
      const a = (await this.ask('Send it? [y]es, [e]dit, [N]o: ')).trim().toLowerCase();
      if (a === 'y' || a === 'yes') return { action: 'approve' };
      if (a !== 'e' && a !== 'edit') return { action: 'deny', reason: 'the user said no' };
      const messages = structuredClone(r.params.messages);
      const last = [...messages]
        .reverse()
        .find((m) => m.role === 'user' && blocksOf(m.content).some((b) => b.type === 'text'));
      if (last) {
        const text = await this.ask('New text of the last user message (Enter keeps it): ');
        if (text.trim() !== '') last.content = { type: 'text', text };
      }
      const model = (await this.ask(`Model (Enter keeps ${safe(r.model)}): `)).trim();
      return { action: 'approve', params: { ...r.params, messages }, ...(model ? { model } : {}) };
    });
  }

  reviewSamplingResult(r: SamplingResultReviewRequest, signal?: AbortSignal): Promise<SamplingResultReview> {
    return this.exclusive(signal, async () => {
      this.heading(`The LLM answered "${safe(r.server)}" (${safe(r.result.model)})`);
      this.say(renderMessages([r.result]));
      const a = (await this.ask('Return it to the server? [Y]es, [e]dit, [n]o: ')).trim().toLowerCase();
      if (a === 'n' || a === 'no') return { action: 'deny' };
      if (a !== 'e' && a !== 'edit') return { action: 'approve' };
      const text = await this.ask('Replacement text: ');
      const result: CreateMessageResult = {
        ...r.result,
        content: { type: 'text', text },
        stopReason: 'endTurn',
      };
      return { action: 'approve', result };
    });
  }

  elicitForm(r: FormRequest, signal?: AbortSignal): Promise<ElicitResult> {
    return this.exclusive(signal, async () => {
      this.heading(`Server "${safe(r.server)}" asks you for information`);
      this.say(`  ${safe(r.message, 1000)}`);
      for (const e of r.errors ?? []) this.say(`  ! ${safe(e)}`);
      const a = (await this.ask('[f]ill in, [d]ecline, [C]ancel: ')).trim().toLowerCase();
      if (a === 'd' || a === 'decline') return { action: 'decline' };
      if (a !== 'f' && a !== 'fill') return { action: 'cancel' };
      const content: Record<string, ElicitValue> = {};
      const required = new Set(r.schema.required ?? []);
      for (const [name, field] of Object.entries(r.schema.properties ?? {})) {
        const label = safe(field.title ?? name);
        if (field.description) this.say(`  ${label}: ${safe(field.description, 300)}`);
        const choices = choicesOf(field);
        choices?.forEach((c, i) => this.say(`    ${i + 1}. ${safe(c.label)}`));
        const dflt = field.default !== undefined ? ` [${safe(JSON.stringify(field.default))}]` : '';
        for (;;) {
          const text = await this.ask(`  ${label}${required.has(name) ? ' (required)' : ''}${dflt}: `);
          if (text.trim() === '' && (field.default !== undefined || !required.has(name))) break;
          const parsed = parseFieldInput(field, text);
          if ('value' in parsed) {
            content[name] = parsed.value;
            break;
          }
          this.say(`    ${parsed.error}`);
        }
      }
      return { action: 'accept', content };
    });
  }

  confirmUrl(r: UrlConsentRequest, signal?: AbortSignal): Promise<boolean> {
    return this.exclusive(signal, async () => {
      this.heading(`Server "${safe(r.server)}" wants you to open a web page`);
      this.say(`  ${safe(r.message, 600)}`);
      this.say(`  domain: >>> ${safe(r.domain)} <<<`);
      this.say(`  full URL: ${safe(r.url, 100_000)}`);
      for (const w of r.warnings) this.say(`  ! ${w}`);
      return this.yes(await this.ask('Open it in your browser? [y/N] '));
    });
  }

  typeCompletion(r: CompletionRequest, signal?: AbortSignal): Promise<CreateMessageResult> {
    return this.exclusive(signal, async () => {
      this.heading(`You are the model (${safe(r.model)})`);
      if (r.params.systemPrompt) this.say(`  system: ${safe(r.params.systemPrompt, 800)}`);
      this.say(renderMessages(r.params.messages.slice(-6)));
      const tools = r.params.tools ?? [];
      const listTools = (): void => {
        for (const t of tools) this.say(`  tool ${t.name}: ${safe(t.description ?? '', 160)}`);
      };
      // The list once, and again only when it changes: a long catalog would bury every turn.
      const shown = JSON.stringify(tools.map((t) => [t.name, t.description]));
      if (tools.length > 0 && shown !== this.toolsShown) {
        listTools();
        this.say('  To call a tool, type: /tool <name> <JSON arguments>; /tools lists them again');
      } else if (tools.length > 0) {
        this.say(
          `  (${tools.length} tools, as before: /tools lists them, /tool <name> <JSON arguments> calls one)`,
        );
      }
      this.toolsShown = shown;
      for (;;) {
        const line = await this.ask('assistant> ');
        if (line.trim() === '/tools') {
          listTools();
          continue;
        }
        const m = /^\/tool\s+(\S+)\s*(.*)$/.exec(line.trim());
        if (!m)
          return {
            role: 'assistant',
            content: { type: 'text', text: line },
            model: r.model,
            stopReason: 'endTurn',
          };
        try {
          const input: unknown = m[2] ? JSON.parse(m[2]) : {};
          if (typeof input !== 'object' || input === null || Array.isArray(input))
            throw new Error('arguments must be a JSON object');
          const id = `call_${Date.now().toString(36)}`;
          return {
            role: 'assistant',
            content: [{ type: 'tool_use', id, name: m[1]!, input: input as Record<string, unknown> }],
            model: r.model,
            stopReason: 'toolUse',
          };
        } catch (e) {
          this.say(`  ${(e as Error).message}`);
        }
      }
    });
  }

  /**
   * Reads one line the person types (what a host's chat loop asks for), in turn with the
   * questions: `undefined` once the input has ended (Ctrl-D, the end of a pipe).
   */
  readLine(prompt: string, signal?: AbortSignal): Promise<string | undefined> {
    return this.exclusive(signal, async () => {
      if (this.ended && this.lines.length === 0) return undefined;
      const line = await this.ask(prompt, true);
      return line;
    });
  }

  /** Stops reading the terminal. */
  close(): void {
    this.rl?.close();
    this.rl = undefined;
  }

  /** One question at a time; a question whose signal fires is skipped (refused). */
  private exclusive<T>(signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => {
      if (signal?.aborted) throw new Error('The request was cancelled before it was asked');
      return fn();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private heading(text: string): void {
    this.output.write(`\n── ${text}\n`);
  }

  private say(text: string): void {
    this.output.write(text + '\n');
  }

  private yes(answer: string): boolean {
    return /^(y|yes)$/i.test(answer.trim());
  }

  /**
   * Reads one line; at end of input every question is answered with the empty (safe)
   * default, or with `undefined` when `orEnd` asks to tell the end apart.
   */
  private ask(prompt: string): Promise<string>;
  private ask(prompt: string, orEnd: true): Promise<string | undefined>;
  private ask(prompt: string, orEnd = false): Promise<string | undefined> {
    this.output.write(prompt);
    const atEnd = (): string | undefined => {
      if (orEnd) {
        this.output.write('\n');
        return undefined;
      }
      return this.echo('');
    };
    const queued = this.lines.shift();
    if (queued !== undefined) return Promise.resolve(this.echo(queued));
    if (this.ended) return Promise.resolve(atEnd());
    this.open();
    this.rl!.resume();
    return new Promise((resolve) => {
      this.waiting = (line) => {
        this.rl?.pause();
        resolve(line === undefined ? atEnd() : this.echo(line));
      };
    });
  }

  private echo(line: string): string {
    if (!(this.input as { isTTY?: boolean }).isTTY) this.output.write(line + '\n');
    return line;
  }

  private open(): void {
    if (this.rl) return;
    const rl = createInterface({ input: this.input, terminal: false });
    rl.on('line', (line) => {
      const w = this.waiting;
      this.waiting = undefined;
      if (w) w(line);
      else this.lines.push(line);
    });
    rl.on('close', () => {
      this.ended = true;
      const w = this.waiting;
      this.waiting = undefined;
      w?.(undefined);
    });
    this.rl = rl;
  }
}

function safe(text: string, max = 400): string {
  return displaySafe(text, max);
}
