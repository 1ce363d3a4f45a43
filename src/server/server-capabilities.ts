/** The capabilities a server declares, computed from what is registered and its options. */
import { tasksCapabilities } from './task-wire.js';

/** What the declared capabilities are computed from. */
export interface CapabilitySources {
  readonly tools: ReadonlyMap<string, unknown>;
  readonly resources: ReadonlyMap<string, unknown>;
  readonly templates: ReadonlyMap<string, unknown>;
  readonly prompts: ReadonlyMap<string, unknown>;
  /** Tasks are on (their runtime exists or is loading). */
  readonly tasks: boolean;
  /** Extensions declared with `declareExtension`. */
  readonly extensions: Record<string, Record<string, unknown>>;
  /** `ServerOptions.capabilities`, merged over the computed ones. */
  readonly own: Record<string, unknown> | undefined;
}

export function declaredCapabilities(s: CapabilitySources): Record<string, unknown> {
  const caps: Record<string, unknown> = { logging: {} };
  if (s.tools.size > 0) caps.tools = { listChanged: true };
  if (s.resources.size > 0 || s.templates.size > 0) caps.resources = { subscribe: true, listChanged: true };
  if (s.prompts.size > 0) caps.prompts = { listChanged: true };
  if (s.prompts.size > 0 || s.templates.size > 0) caps.completions = {};
  const own = s.own;
  const declared = Object.keys(s.extensions).length > 0 ? s.extensions : undefined;
  if (s.tasks) {
    const t = tasksCapabilities();
    const extensions = {
      ...(t.extensions as object),
      ...declared,
      ...(own?.extensions as object | undefined),
    };
    return { ...caps, tasks: t.tasks, ...own, extensions };
  }
  if (declared) {
    return { ...caps, ...own, extensions: { ...declared, ...(own?.extensions as object | undefined) } };
  }
  return { ...caps, ...own };
}
