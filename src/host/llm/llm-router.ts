/**
 * From a server's modelPreferences to a configured model and its provider. Providers are
 * built on first use from their row of the provider registry, and the vendor SDKs are
 * imported only then.
 */
import type { ModelPreferences } from '../../protocol/types/index.js';
import type { LlmConfig, ModelConfig, ProviderConfig } from '../config/config-types.js';
import type { LlmProvider } from './llm.js';
import { buildProvider } from './provider-registry.js';
import type { HostUi } from '../ui/ui.js';

/**
 * Picks a model for a request, following the spec's advice: the hints are tried in
 * order, each matched as a substring of a model's id or aliases (case-insensitive), and
 * the first match wins; without a match, the priorities weigh the models' traits
 * (`intelligence`, `speed`, and `1 - cost`); with neither, the default model.
 *
 * @example
 * ```ts
 * selectModel(models, { hints: [{ name: 'claude-3-sonnet' }, { name: 'claude' }], costPriority: 0.8 }, 'small');
 * ```
 */
export function selectModel(
  models: readonly ModelConfig[],
  preferences: ModelPreferences | undefined,
  defaultModel?: string,
): ModelConfig | undefined {
  if (models.length === 0) return undefined;
  for (const hint of preferences?.hints ?? []) {
    const h = typeof hint?.name === 'string' ? hint.name.toLowerCase().trim() : '';
    if (!h) continue;
    const found = models.find((m) =>
      [m.id, ...m.aliases].some((n) => n.toLowerCase().includes(h) || h === n.toLowerCase()),
    );
    if (found) return found;
  }
  const fallback = models.find((m) => m.id === defaultModel) ?? models[0]!;
  const cp = clamp(preferences?.costPriority);
  const sp = clamp(preferences?.speedPriority);
  const ip = clamp(preferences?.intelligencePriority);
  if (cp + sp + ip === 0) return fallback;
  let best = fallback;
  let bestScore = -Infinity;
  for (const m of models) {
    const score = ip * m.intelligence + sp * m.speed + cp * (1 - m.cost);
    if (score > bestScore + 1e-9) [best, bestScore] = [m, score];
  }
  return best;
}

function clamp(v: number | undefined): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0;
}

/** Builds a provider from its config (the default builds it from the provider registry). */
export type ProviderFactory = (name: string, config: ProviderConfig) => LlmProvider | Promise<LlmProvider>;

/** The models and providers a host can use. */
export interface LlmSetup {
  /** The configured models and providers (usually `config.llm`). */
  config?: LlmConfig;
  /** Ready providers by name; they win over configured ones of the same name. */
  providers?: Record<string, LlmProvider>;
  /** One provider and model, for the simplest setups (tests, demos). */
  provider?: LlmProvider;
  model?: string;
  factory?: ProviderFactory;
}

/** A chosen model and the provider that serves it. */
export interface ModelChoice {
  model: string;
  provider: LlmProvider;
}

/**
 * Resolves preferences to a model and a provider.
 *
 * @example
 * ```ts
 * const router = new LlmRouter({ config: config.llm }, ui);
 * const { model, provider } = await router.choose({ hints: [{ name: 'sonnet' }] });
 * ```
 */
export class LlmRouter {
  private readonly built = new Map<string, Promise<LlmProvider>>();
  private readonly models: ModelConfig[];

  constructor(
    private readonly setup: LlmSetup,
    private readonly ui: HostUi,
  ) {
    this.models = [...(setup.config?.models ?? [])];
    if (setup.provider) {
      this.models.unshift({
        id: setup.model ?? setup.provider.name,
        provider: '\u0000direct',
        aliases: [],
        cost: 0.5,
        speed: 0.5,
        intelligence: 0.5,
      });
    }
  }

  /** Whether any model is available. */
  get available(): boolean {
    return this.models.length > 0;
  }

  /** The model id preferences lead to, without building its provider. */
  modelFor(preferences: ModelPreferences | undefined): string | undefined {
    const dflt = this.setup.provider ? this.models[0]!.id : this.setup.config?.defaultModel;
    return selectModel(this.models, preferences, dflt)?.id;
  }

  /** The model for these preferences (or the model named), with its provider. */
  async choose(preferences: ModelPreferences | undefined, modelId?: string): Promise<ModelChoice> {
    const id = modelId ?? this.modelFor(preferences);
    const model = this.models.find((m) => m.id === id);
    if (!model) {
      throw new Error(
        id === undefined
          ? 'No LLM is configured: add models under "mcpkit.llm" in the config, or pass llm.provider'
          : `Unknown model ${JSON.stringify(id)}: it is not among the configured models`,
      );
    }
    return { model: model.id, provider: await this.providerFor(model.provider) };
  }

  private providerFor(name: string): Promise<LlmProvider> {
    if (name === '\u0000direct') return Promise.resolve(this.setup.provider!);
    const given = this.setup.providers?.[name];
    if (given) return Promise.resolve(given);
    let p = this.built.get(name);
    if (!p) {
      const config = this.setup.config?.providers[name];
      if (!config) return Promise.reject(new Error(`Unknown LLM provider ${JSON.stringify(name)}`));
      p = Promise.resolve((this.setup.factory ?? this.defaultFactory)(name, config));
      this.built.set(name, p);
      p.catch(() => this.built.delete(name));
    }
    return p;
  }

  private readonly defaultFactory: ProviderFactory = (name, config) => buildProvider(name, config, this.ui);
}
