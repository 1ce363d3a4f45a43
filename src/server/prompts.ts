import { WireError } from '../jsonrpc/index.js';
import type { Prompt, PromptMessage, GetPromptResult } from '../protocol/types/prompts.js';
import type { Icon } from '../protocol/types/base.js';
import type { Completer } from './resources.js';
import type { ServerContext } from './server-context.js';
import { compileVisibility } from './visibility.js';
import type { VisibilityCheck, VisibleTo } from './visibility.js';

/** One argument of a prompt. */
export interface PromptArgumentDefinition {
  /** The name clients pass it by. */
  name: string;
  /** A human-readable name for display. */
  title?: string;
  /** What it means, for the user. */
  description?: string;
  /** Whether a call must pass it (default false). */
  required?: boolean;
  /** Completion of this argument's value. */
  complete?: Completer;
}

/** A prompt as an author declares it: what it is called, what it takes, what it returns. */
export interface PromptDefinition {
  /** The name clients get it by. */
  name: string;
  /** A human-readable name for display. */
  title?: string;
  /** What it does, for the model and the user. */
  description?: string;
  /** Its arguments (prompt arguments are strings), each with its own completion. */
  arguments?: PromptArgumentDefinition[];
  /** Icons for display. */
  icons?: Icon[];
  /** Extra metadata, sent as is. */
  _meta?: Record<string, unknown>;
  /**
   * Who may see this prompt (see {@link VisibleTo}). To any other caller it does not exist:
   * `prompts/list` leaves it out, `prompts/get` and completion answer as for an unknown
   * name. Default: everyone.
   */
  visibleTo?: VisibleTo;
}

/** What a prompt handler may return: a full result, or its messages as a shortcut. */
export type PromptReturn = GetPromptResult | PromptMessage[];

/** Runs a prompt: gets its checked arguments and the call's context, returns its messages. */
export type PromptHandler = (
  args: Record<string, string>,
  ctx: ServerContext,
) => PromptReturn | Promise<PromptReturn>;

export interface PromptEntry {
  readonly wire: Prompt;
  readonly args: readonly PromptArgumentDefinition[];
  readonly handler: PromptHandler;
  readonly visible: VisibilityCheck | undefined;
}

export function buildPrompt(def: PromptDefinition, handler: PromptHandler): PromptEntry {
  if (typeof def.name !== 'string' || def.name.length === 0) throw new TypeError('A prompt needs a name');
  const wire: Record<string, unknown> = { name: def.name };
  if (def.title !== undefined) wire.title = def.title;
  if (def.description !== undefined) wire.description = def.description;
  const args = def.arguments ?? [];
  if (args.length > 0) {
    wire.arguments = args.map((a) => {
      const w: Record<string, unknown> = { name: a.name };
      if (a.title !== undefined) w.title = a.title;
      if (a.description !== undefined) w.description = a.description;
      if (a.required !== undefined) w.required = a.required;
      return w;
    });
  }
  if (def.icons !== undefined) wire.icons = def.icons;
  if (def._meta !== undefined) wire._meta = def._meta;
  const visible = compileVisibility(def.visibleTo, `Prompt ${def.name}`);
  return { wire: wire as unknown as Prompt, args, handler, visible };
}

/** Checks prompt arguments: all strings, required ones present, unknown ones refused. */
export function checkPromptArguments(entry: PromptEntry, raw: unknown): Record<string, string> {
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) {
    throw WireError.invalidParams('Prompt arguments must be an object of strings');
  }
  const given = (raw ?? {}) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const key of Object.keys(given)) {
    const value = given[key];
    if (!entry.args.some((a) => a.name === key)) {
      throw WireError.invalidParams(`Prompt ${entry.wire.name} has no argument named ${JSON.stringify(key)}`);
    }
    if (typeof value !== 'string') {
      throw WireError.invalidParams(`Prompt argument ${key} must be a string`);
    }
    out[key] = value;
  }
  for (const a of entry.args) {
    if (a.required && !Object.hasOwn(out, a.name)) {
      throw WireError.invalidParams(`Prompt ${entry.wire.name} needs the argument ${JSON.stringify(a.name)}`);
    }
  }
  return out;
}

export function normalizePrompt(value: PromptReturn, name: string): GetPromptResult {
  if (Array.isArray(value)) return { messages: value };
  if (typeof value !== 'object' || value === null || !Array.isArray(value.messages)) {
    throw WireError.internal(`Prompt ${name} returned no messages`);
  }
  return value;
}
