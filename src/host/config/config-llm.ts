/** The `mcpkit.llm` section of a config: providers and the models they serve. */
import type { LlmConfig, ModelConfig, ProviderConfig } from './config-types.js';
import { PROVIDER_TYPES } from './config-types.js';
import type { FieldReader } from './config-reader.js';

const ONE_OF_TYPES = `one of ${PROVIDER_TYPES.map((t) => JSON.stringify(t)).join(', ')}`;
const UNIT = { min: 0, max: 1 };

/**
 * Reads `{ providers: { name: { type, baseURL, apiKey, headers, timeoutMs } }, models: [...],
 * defaultModel }`. A model names its provider; its `cost`, `speed` and `intelligence`
 * (0 to 1) are what a server's modelPreferences are weighed against.
 *
 * @example
 * ```json
 * "llm": {
 *   "providers": { "local": { "type": "openai", "baseURL": "http://127.0.0.1:8080/v1" } },
 *   "models": [{ "id": "qwen2.5-7b-instruct", "provider": "local", "aliases": ["gpt-4o-mini"] }]
 * }
 * ```
 */
export function parseLlm(r: FieldReader | undefined): LlmConfig {
  const llm: LlmConfig = { providers: {}, models: [], defaultModel: undefined };
  if (!r) return llm;
  r.unknownKeys(['providers', 'models', 'defaultModel']);
  const providers = r.object('providers');
  for (const name of Object.keys(providers?.obj ?? {})) {
    const p = providers!.object(name);
    if (!p) continue;
    p.unknownKeys(['type', 'baseURL', 'apiKey', 'headers', 'timeoutMs']);
    const type = p.oneOf('type', PROVIDER_TYPES);
    if (!p.has('type')) p.issue(p.path('type'), ONE_OF_TYPES, undefined);
    const provider: ProviderConfig = {
      type: type ?? 'openai',
      baseURL: p.string('baseURL', { allowEmpty: false }),
      apiKey: p.string('apiKey'),
      headers: p.stringMap('headers') ?? {},
      timeoutMs: p.number('timeoutMs', { min: 1, integer: true }),
    };
    if (provider.baseURL !== undefined && !/^https?:\/\//.test(provider.baseURL)) {
      p.issue(p.path('baseURL'), 'an http:// or https:// URL', provider.baseURL);
    }
    llm.providers[name] = provider;
  }
  for (const m of r.objects('models') ?? []) {
    m.unknownKeys(['id', 'provider', 'aliases', 'cost', 'speed', 'intelligence']);
    const model: ModelConfig = {
      id: m.string('id', { required: true, allowEmpty: false }) ?? '',
      provider: m.string('provider', { required: true, allowEmpty: false }) ?? '',
      aliases: m.stringArray('aliases') ?? [],
      cost: m.number('cost', UNIT) ?? 0.5,
      speed: m.number('speed', UNIT) ?? 0.5,
      intelligence: m.number('intelligence', UNIT) ?? 0.5,
    };
    if (model.provider && !Object.hasOwn(llm.providers, model.provider)) {
      const known = Object.keys(llm.providers).join(', ') || 'none are configured';
      m.issue(m.path('provider'), `the name of a configured provider (${known})`, model.provider);
    }
    llm.models.push(model);
  }
  llm.defaultModel = r.string('defaultModel', { allowEmpty: false });
  if (llm.defaultModel !== undefined && !llm.models.some((m) => m.id === llm.defaultModel)) {
    r.issue(r.path('defaultModel'), 'the id of a configured model', llm.defaultModel);
  }
  return llm;
}
