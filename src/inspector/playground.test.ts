/**
 * Which model the inspector's playground uses: the config's `llm` section, or `--model` as a
 * model id or `PROVIDER:MODEL`; and the CLI's answer to a `--model` it cannot use.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHostConfig } from '../host/index.js';
import { startCli } from '../test-support/cli-process.js';
import { DEMO_STDIO } from '../test-support/inspector-harness.js';
import { playgroundLlm } from './playground.js';

const config = parseHostConfig({
  mcpServers: {},
  mcpkit: {
    llm: {
      providers: { local: { type: 'openai', baseURL: 'http://127.0.0.1:9/v1' } },
      models: [
        { id: 'small', provider: 'local' },
        { id: 'big', provider: 'local' },
      ],
      defaultModel: 'big',
    },
  },
});

describe('playgroundLlm', () => {
  test("without --model: the config's default model, else its first, else none", () => {
    assert.equal(playgroundLlm(config.llm, undefined).model, 'big');
    assert.equal(playgroundLlm({ ...config.llm, defaultModel: undefined }, undefined).model, 'small');
    assert.equal(playgroundLlm(parseHostConfig({ mcpServers: {} }).llm, undefined).model, undefined);
  });

  test('a configured model id is used as it is', () => {
    const r = playgroundLlm(config.llm, 'small');
    assert.equal(r.model, 'small');
    assert.equal(r.llm, config.llm);
  });

  test('PROVIDER:MODEL with a configured provider adds the model to it (a colon may follow)', () => {
    const r = playgroundLlm(config.llm, 'local:qwen2.5:7b');
    assert.equal(r.model, 'qwen2.5:7b');
    assert.deepEqual(r.llm.models[0], {
      id: 'qwen2.5:7b',
      provider: 'local',
      aliases: [],
      cost: 0.5,
      speed: 0.5,
      intelligence: 0.5,
    });
    assert.equal(r.llm.providers, config.llm.providers);
  });

  test('PROVIDER:MODEL with a provider type adds a provider with its settings from the environment', () => {
    const r = playgroundLlm(config.llm, 'anthropic:claude-sonnet-4-5');
    assert.equal(r.model, 'claude-sonnet-4-5');
    assert.equal(r.llm.providers.anthropic?.type, 'anthropic');
    assert.equal(r.llm.providers.anthropic?.apiKey, undefined);
    assert.equal(r.llm.models[0]?.provider, 'anthropic');
  });

  test('anything else is refused with what would do', () => {
    for (const bad of ['nope', 'nowhere:model', 'openai:', ':model', 'interactive:you'])
      assert.throws(
        () => playgroundLlm(config.llm, bad),
        /is neither a configured model \(small, big\) nor PROVIDER:MODEL/,
      );
  });

  test('mcpkit inspect --model that names nothing is a usage error (exit 2)', async () => {
    const cli = startCli(['inspect', '--model', 'nowhere:model', '--', process.execPath, DEMO_STDIO]);
    assert.equal(await cli.exited, 2);
    assert.match(cli.out.stderr, /--model "nowhere:model" is neither a configured model/);
  });
});
