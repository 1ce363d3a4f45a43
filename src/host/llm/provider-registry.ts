/**
 * The LLM provider types a config may name (`mcpkit.llm.providers.<name>.type`), one row each.
 * A new provider is one file (a class implementing `LlmProvider`), its name in the config's
 * PROVIDER_TYPES, and one row here (the registry's test checks the two lists agree). A row's module, and
 * the vendor SDK behind it, load only when a provider of that type is first used.
 */
import type { ProviderConfig, ProviderType } from '../config/config-types.js';
import type { HostUi } from '../ui/ui.js';
import { InteractiveProvider } from './llm.js';
import type { LlmProvider, SdkProviderOptions } from './llm.js';

/** One provider type: its config name, what it is, and how a configured one is built. */
export interface ProviderRow {
  readonly type: ProviderType;
  readonly summary: string;
  readonly build: (name: string, config: ProviderConfig, ui: HostUi) => Promise<LlmProvider>;
}

/** The provider types, in the order messages list them. */
export const PROVIDER_REGISTRY = [
  {
    type: 'openai',
    summary: 'an OpenAI-compatible chat completions API (OpenAI, llama.cpp, vLLM, Ollama, a proxy)',
    build: async (name, config) => {
      const { OpenAiProvider } = await import('./openai-provider.js');
      return new OpenAiProvider({ name, ...sdkOptions(config) });
    },
  },
  {
    type: 'anthropic',
    summary: "Anthropic's Messages API",
    build: async (name, config) => {
      const { AnthropicProvider } = await import('./anthropic-provider.js');
      return new AnthropicProvider({ name, ...sdkOptions(config) });
    },
  },
  {
    type: 'interactive',
    summary: "a person writes each answer at the host's UI",
    build: async (_name, _config, ui) => new InteractiveProvider(ui),
  },
] as const satisfies readonly ProviderRow[];

/** Builds a configured provider from its row (importing its module now). */
export function buildProvider(name: string, config: ProviderConfig, ui: HostUi): Promise<LlmProvider> {
  const row: ProviderRow | undefined = PROVIDER_REGISTRY.find((r) => r.type === config.type);
  if (!row) return Promise.reject(new Error(`Unknown LLM provider type ${JSON.stringify(config.type)}`));
  return row.build(name, config, ui);
}

/** The config's connection settings, as the vendor SDK providers take them. */
function sdkOptions(config: ProviderConfig): SdkProviderOptions {
  return {
    ...(config.baseURL !== undefined ? { baseURL: config.baseURL } : {}),
    ...(config.apiKey !== undefined ? { apiKey: config.apiKey } : {}),
    headers: config.headers,
    ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
  };
}
