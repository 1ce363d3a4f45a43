/**
 * The config's PROVIDER_TYPES and the provider registry agree: the config reader accepts exactly
 * those types and names them in its message, the registry has one row for each, and every row
 * builds a working provider of its type.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../errors.js';
import { parseHostConfig } from '../config/config-parse.js';
import { ScriptedUi } from '../ui/ui.js';
import { AnthropicProvider } from './anthropic-provider.js';
import { InteractiveProvider } from './llm.js';
import { LlmRouter } from './llm-router.js';
import { OpenAiProvider } from './openai-provider.js';
import { PROVIDER_REGISTRY, buildProvider } from './provider-registry.js';
import { PROVIDER_TYPES } from '../config/config-types.js';

const configWith = (type: unknown): unknown => ({
  mcpServers: {},
  mcpkit: {
    llm: {
      providers: { p: { type, baseURL: 'http://127.0.0.1:9/v1' } },
      models: [{ id: 'm', provider: 'p' }],
    },
  },
});

describe('LLM provider registry', () => {
  test('the config reader accepts every registered type, and refuses others naming them all', () => {
    for (const type of PROVIDER_TYPES) {
      assert.equal(parseHostConfig(configWith(type)).llm.providers.p!.type, type);
    }
    assert.throws(
      () => parseHostConfig(configWith('gemini')),
      (e: unknown) =>
        e instanceof ConfigError && PROVIDER_TYPES.every((t) => e.message.includes(JSON.stringify(t))),
    );
  });

  test('each row builds a provider of its own class, named as configured', async () => {
    const expected = {
      openai: OpenAiProvider,
      anthropic: AnthropicProvider,
      interactive: InteractiveProvider,
    };
    assert.deepEqual(Object.keys(expected).sort(), [...PROVIDER_TYPES].sort());
    // One row per type the config accepts, in the config's order.
    assert.deepEqual(
      PROVIDER_REGISTRY.map((row) => row.type),
      [...PROVIDER_TYPES],
    );
    const ui = new ScriptedUi();
    for (const row of PROVIDER_REGISTRY) {
      const config = parseHostConfig(configWith(row.type)).llm.providers.p!;
      const provider = await buildProvider('p', config, ui);
      assert.ok(provider instanceof expected[row.type], row.type);
      if (row.type !== 'interactive') assert.equal(provider.name, 'p');
    }
  });

  test('the router builds configured providers through the registry', async () => {
    const config = parseHostConfig(configWith('anthropic'));
    const router = new LlmRouter({ config: config.llm }, new ScriptedUi());
    const { model, provider } = await router.choose(undefined);
    assert.equal(model, 'm');
    assert.ok(provider instanceof AnthropicProvider);
  });
});
