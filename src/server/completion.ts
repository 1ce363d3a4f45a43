import { WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import type { PromptEntry } from './prompts.js';
import type { Completer, ResourceEntry, TemplateEntry } from './resources.js';
import { exists } from './catalog-view.js';

/**
 * `completion/complete`: the completer a prompt argument or a resource template variable
 * declares, asked for values; at most 100 go back, with the total and whether there are more.
 * A reference the caller (`authInfo`) may not see is unknown, as if it were not registered.
 */
export async function complete(
  params: Params,
  prompts: ReadonlyMap<string, PromptEntry>,
  resources: ReadonlyMap<string, ResourceEntry>,
  templates: ReadonlyMap<string, TemplateEntry>,
  authInfo: unknown,
): Promise<unknown> {
  const ref = params.ref as Record<string, unknown> | undefined;
  const argument = params.argument as Record<string, unknown> | undefined;
  if (typeof ref !== 'object' || ref === null || typeof argument !== 'object' || argument === null) {
    throw WireError.invalidParams('completion/complete needs ref and argument');
  }
  const argName = argument.name;
  const value = argument.value;
  if (typeof argName !== 'string' || typeof value !== 'string') {
    throw WireError.invalidParams('argument needs a name and a value');
  }
  let completer: Completer | undefined;
  if (ref.type === 'ref/prompt') {
    const entry = typeof ref.name === 'string' ? prompts.get(ref.name) : undefined;
    if (!exists(entry, authInfo)) throw WireError.invalidParams(`Unknown prompt: ${String(ref.name)}`);
    completer = entry.args.find((a) => a.name === argName)?.complete;
  } else if (ref.type === 'ref/resource') {
    const uri = ref.uri;
    const found = typeof uri === 'string' ? templates.get(uri) : undefined;
    const entry = exists(found, authInfo) ? found : undefined;
    if (!entry && !(typeof uri === 'string' && exists(resources.get(uri), authInfo))) {
      throw WireError.invalidParams(`Unknown resource template: ${String(uri)}`);
    }
    completer = entry?.complete?.[argName];
  } else {
    throw WireError.invalidParams('ref.type must be ref/prompt or ref/resource');
  }
  const context = params.context as { arguments?: Record<string, string> } | undefined;
  const all = completer ? await completer(value, { arguments: context?.arguments ?? {} }) : [];
  const values = all.slice(0, 100);
  return { completion: { values, total: all.length, hasMore: all.length > values.length } };
}
