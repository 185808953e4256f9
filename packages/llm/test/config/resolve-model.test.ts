import { loadPipeline, type GraphNode } from '@orchestra/core';
import { describe, expect, it } from 'vitest';
import { ModelConfigError, emptyConfig, resolveChatModel, resolveModel, type Env, type ModelFlags } from '../../src/config/index.js';
import { configOf, node, thrown } from './helpers.js';

const CFG = '/cfg/orchestra.yaml';
const KEY = { OPENAI_API_KEY: 'sk-test-000000001234' };

const FILE = [
  'providers:', //                                  1
  '  local:', //                                    2
  '    base_url: http://localhost:8000/v1', //      3
  '    api_key_env: null', //                       4
  '    timeout: 5m', //                             5
  '    headers: { X-Org: abc }', //                 6
  '  groq:', //                                     7
  '    base_url: https://api.groq.com/openai/v1', // 8
  '    api_key_env: GROQ_API_KEY', //               9
  'models:', //                                     10
  '  smart: { model: gpt-5.2, provider: openai, reasoning_effort: high, temperature: 0.2, max_tokens: 4000 }', // 11
  '  cheap: { model: qwen2.5-7b-instruct, provider: local }', // 12
  '  plain: { model: plain-id }', //                13
  'defaults:', //                                   14
  '  model: cheap', //                              15
  '  provider: groq', //                            16
  '  backend: agent', //                            17
  '',
].join('\n');

function resolve(n: GraphNode, options: { text?: string; env?: Env; flags?: ModelFlags } = {}) {
  const config = options.text === undefined ? emptyConfig('/work') : configOf(options.text);
  return resolveModel(n, { config, env: options.env ?? KEY, flags: options.flags ?? {} });
}

describe('resolveModel: backend', () => {
  it('takes --backend, then the node, then defaults.backend, then chat', () => {
    const n = node('plan', { llm_model: 'm', 'agent.backend': 'cli' });
    const env = { GROQ_API_KEY: 'g' };
    expect(resolve(n, { text: FILE, env, flags: { backend: 'chat' } })).toMatchObject({ backend: 'chat', sources: { backend: '--backend flag' } });
    expect(resolve(n, { text: FILE, env })).toMatchObject({ backend: 'cli', sources: { backend: 'node plan attribute agent.backend' } });
    expect(resolve(node('plan', { llm_model: 'm' }), { text: FILE, env })).toMatchObject({
      backend: 'agent',
      sources: { backend: `${CFG}:17:12 defaults.backend` },
    });
    expect(resolve(node('plan', { llm_model: 'm' }))).toMatchObject({ backend: 'chat', sources: { backend: 'built-in default' } });
  });

  it('refuses an agent.backend it does not know', () => {
    const error = thrown(() => resolve(node('plan', { llm_model: 'm', 'agent.backend': 'robot' })));
    expect(error).toBeInstanceOf(ModelConfigError);
    expect(error.code).toBe('ORCH_BAD_ATTRIBUTE');
    expect(error.message).toBe('node plan attribute agent.backend is "robot"; expected one of chat, agent, cli');
  });
});

describe('resolveModel: model and alias', () => {
  it('takes --model, then llm_model, then defaults.model', () => {
    const n = node('plan', { llm_model: 'from-node' });
    expect(resolve(n, { flags: { model: 'from-flag' } })).toMatchObject({ model: 'from-flag', sources: { model: '--model flag' } });
    expect(resolve(n)).toMatchObject({ model: 'from-node', sources: { model: 'node plan attribute llm_model' } });
    const fromConfig = resolve(node('plan'), { text: 'defaults:\n  model: raw-id\n' });
    expect(fromConfig).toMatchObject({ model: 'raw-id', sources: { model: `${CFG}:2:10 defaults.model` } });
    expect(fromConfig.alias).toBeUndefined();
  });

  it('a default model (chat and mcp\'s --model) fills in only the stages that name none: llm_model wins, defaults.model loses', () => {
    const text = 'models:\n  fast: { model: fast-id }\n  smart: { model: smart-id }\ndefaults:\n  model: raw-id\n';
    const flags = { defaultModel: 'fast' };
    expect(resolve(node('agent_2', { llm_model: 'smart' }), { text, flags })).toMatchObject({ model: 'smart-id', alias: 'smart', sources: { model: 'node agent_2 attribute llm_model' } });
    expect(resolve(node('rank'), { text, flags })).toMatchObject({ model: 'fast-id', alias: 'fast', sources: { model: '--model flag (for stages that name no model)' } });
    // --model of `orchestra run` still names every stage's model.
    expect(resolve(node('agent_2', { llm_model: 'smart' }), { text, flags: { model: 'fast' } })).toMatchObject({ model: 'fast-id' });
  });

  it('the chat session agent: chat.model, else the flags\' model, else defaults.model; always the chat backend', () => {
    const text = 'models:\n  talker: { model: talker-id }\ndefaults:\n  model: raw-id\n  backend: agent\nchat:\n  model: talker\n';
    const chat = (t: string, flags: ModelFlags = {}) => resolveChatModel({ config: configOf(t), env: KEY, flags });
    expect(chat(text, { model: 'fast-id' })).toMatchObject({ model: 'talker-id', backend: 'chat', sources: { model: `${CFG}:7:10 chat.model` } });
    const without = text.replace('chat:\n  model: talker\n', '');
    expect(chat(without, { model: 'fast-id' })).toMatchObject({ model: 'fast-id', backend: 'chat', sources: { model: '--model flag' } });
    expect(chat(without)).toMatchObject({ model: 'raw-id', sources: { model: `${CFG}:4:10 defaults.model` } });
    expect(thrown(() => resolveChatModel({ config: emptyConfig('/work'), env: KEY, flags: {} })).message).toMatch(/^node chat_session has no model/);
  });

  it('fails with ORCH_NO_MODEL saying what to set', () => {
    const error = thrown(() => resolve(node('plan')));
    expect(error).toBeInstanceOf(ModelConfigError);
    expect(error).toMatchObject({ code: 'ORCH_NO_MODEL', nodeId: 'plan' });
    expect(error.message).toBe('node plan has no model: pass --model <name>, set llm_model on the node (or in model_stylesheet), or set defaults.model in orchestra.yaml');
  });

  it('with only --base-url set, says that a model is missing, not that nothing is configured', () => {
    const error = thrown(() => resolve(node('plan'), { env: {}, flags: { baseUrl: 'http://127.0.0.1:8080/v1' } }));
    expect(error.message).toBe('node plan has no model: pass --model <name>, set llm_model on the node (or in model_stylesheet), or set defaults.model in orchestra.yaml');
    expect(thrown(() => resolve(node('plan'), { env: {} })).message).toContain('has no model and no provider is configured');
  });

  it('needs no model for the cli backend', () => {
    const resolved = resolve(node('plan'), { flags: { backend: 'cli' }, env: {} });
    expect(resolved.model).toBeUndefined();
    expect(resolved.sources.model).toBe('not needed by the cli backend');
    expect(resolved.provider.apiKey).toBeUndefined();
  });

  it('expands an alias into its model, provider and options', () => {
    const resolved = resolve(node('plan', { llm_model: 'smart' }), { text: FILE });
    expect(resolved).toMatchObject({
      alias: 'smart',
      model: 'gpt-5.2',
      reasoningEffort: 'high',
      temperature: 0.2,
      maxTokens: 4000,
      provider: { name: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: KEY.OPENAI_API_KEY, apiKeyEnv: 'OPENAI_API_KEY' },
      sources: { provider: `${CFG}:11:38 models.smart.provider` },
    });
  });

  it('takes reasoning_effort from the node over the alias, and refuses a bad one', () => {
    expect(resolve(node('plan', { llm_model: 'smart', reasoning_effort: 'low' }), { text: FILE }).reasoningEffort).toBe('low');
    expect(resolve(node('plan', { llm_model: 'x' })).reasoningEffort).toBeUndefined();
    expect(thrown(() => resolve(node('plan', { llm_model: 'x', reasoning_effort: 'max' }))).message).toBe(
      'node plan attribute reasoning_effort is "max"; expected one of low, medium, high',
    );
  });
});

describe('resolveModel: provider', () => {
  const env = { ...KEY, GROQ_API_KEY: 'gsk_groq_key_5678' };

  it('takes llm_provider, then the alias, then defaults.provider, then the only provider, then openai', () => {
    expect(resolve(node('plan', { llm_model: 'cheap', llm_provider: 'groq' }), { text: FILE, env }).provider.name).toBe('groq');
    expect(resolve(node('plan', { llm_model: 'cheap' }), { text: FILE, env }).provider.name).toBe('local');
    const viaDefaults = resolve(node('plan', { llm_model: 'plain' }), { text: FILE, env });
    expect(viaDefaults).toMatchObject({ model: 'plain-id', provider: { name: 'groq' }, sources: { provider: `${CFG}:16:13 defaults.provider` } });
    const only = resolve(node('plan', { llm_model: 'm' }), { text: 'providers:\n  local: { base_url: "http://localhost:1/v1" }\n' });
    expect(only).toMatchObject({ provider: { name: 'local' }, sources: { provider: `${CFG}:2:10 providers.local (the only configured provider)` } });
    expect(resolve(node('plan', { llm_model: 'm' }), { text: FILE.replace('  provider: groq\n', '') }).provider.name).toBe('openai');
    expect(resolve(node('plan', { llm_model: 'm' }))).toMatchObject({ provider: { name: 'openai' }, sources: { provider: 'built-in default' } });
  });

  it('ignores the node llm_provider under --model', () => {
    const n = node('plan', { llm_model: 'smart', llm_provider: 'groq' });
    expect(resolve(n, { text: FILE, env, flags: { model: 'cheap' } })).toMatchObject({ model: 'qwen2.5-7b-instruct', provider: { name: 'local' } });
    expect(resolve(n, { text: FILE, env, flags: { model: 'raw' } }).provider.name).toBe('groq'); // defaults.provider
  });

  it('fills a configured provider: base URL, key, headers, timeout', () => {
    const resolved = resolve(node('plan', { llm_model: 'cheap' }), { text: FILE, env });
    expect(resolved.provider).toEqual({ name: 'local', kind: 'openai', baseUrl: 'http://localhost:8000/v1', headers: { 'X-Org': 'abc' }, timeoutMs: 300_000 });
    expect(resolved.sources).toMatchObject({ baseUrl: `${CFG}:3:15 providers.local.base_url`, apiKey: 'provider local sets no api_key_env' });
    const groq = resolve(node('plan', { llm_model: 'm', llm_provider: 'groq' }), { text: FILE, env });
    expect(groq.provider).toMatchObject({ apiKey: 'gsk_groq_key_5678', apiKeyEnv: 'GROQ_API_KEY' });
    expect(groq.sources.apiKey).toBe('environment GROQ_API_KEY');
  });

  it('fails with ORCH_NO_PROVIDER naming the node attribute and how to add one', () => {
    const error = thrown(() => resolve(node('plan', { llm_model: 'm', llm_provider: 'opnai' }), { text: FILE, env }));
    expect(error).toMatchObject({ code: 'ORCH_NO_PROVIDER', nodeId: 'plan' });
    expect(error.message).toBe(
      'node plan attribute llm_provider names provider "opnai", which is not configured (configured: openai, anthropic, gemini, ollama, local, groq): add providers.opnai.base_url to orchestra.yaml, or use one of those',
    );
  });

  it('gives the attribute position when the graph has one (and the stylesheet when it set the value)', () => {
    const source = [
      'digraph P {',
      '  graph [model_stylesheet="#review { llm_provider: nowhere; }"]',
      '  start [shape=Mdiamond]',
      '  exit [shape=Msquare]',
      '  plan [prompt="p", llm_model="m", llm_provider="opnai"]',
      '  review [prompt="r", llm_model="m"]',
      '  start -> plan -> review -> exit',
      '}',
    ].join('\n');
    const graph = loadPipeline(source, { file: '/p/pipeline.dot' }).graph;
    const plan = graph?.nodes.get('plan') as GraphNode;
    const review = graph?.nodes.get('review') as GraphNode;
    expect(thrown(() => resolve(plan)).message).toMatch(/^node plan attribute llm_provider \(\/p\/pipeline\.dot:5:49\) names provider "opnai", which is not configured/);
    expect(thrown(() => resolve(review)).message).toMatch(/^node review attribute llm_provider \(set by model_stylesheet at \/p\/pipeline\.dot:2:10\) names provider "nowhere"/);
    expect(resolve(plan, { flags: { model: 'x' } }).sources.model).toBe('--model flag');
  });
});

describe('resolveModel: the built-in openai provider', () => {
  const n = node('plan', { llm_model: 'gpt' });

  it('uses the OpenAI URL and OPENAI_API_KEY', () => {
    expect(resolve(n)).toMatchObject({
      provider: { name: 'openai', kind: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: KEY.OPENAI_API_KEY, apiKeyEnv: 'OPENAI_API_KEY', headers: {} },
      sources: { baseUrl: 'built-in default', apiKey: 'environment OPENAI_API_KEY' },
    });
  });

  it('fails with ORCH_NO_API_KEY when OPENAI_API_KEY is unset or blank', () => {
    for (const env of [{}, { OPENAI_API_KEY: ' ' }] as Env[]) {
      const error = thrown(() => resolve(n, { env }));
      expect(error).toMatchObject({ code: 'ORCH_NO_API_KEY', nodeId: 'plan' });
      expect(error.message).toBe('node plan uses provider openai (https://api.openai.com/v1), which needs an API key: set the environment variable OPENAI_API_KEY');
    }
  });

  it('takes OPENAI_BASE_URL from the environment and needs no key for another server', () => {
    const resolved = resolve(n, { env: { OPENAI_BASE_URL: 'http://localhost:11434/v1' } });
    expect(resolved.provider).toEqual({ name: 'openai', kind: 'openai', baseUrl: 'http://localhost:11434/v1', apiKeyEnv: 'OPENAI_API_KEY', headers: {} });
    expect(resolved.sources).toMatchObject({ baseUrl: 'environment OPENAI_BASE_URL', apiKey: 'OPENAI_API_KEY is not set; not needed for http://localhost:11434/v1 (not api.openai.com)' });
  });

  it('lets --base-url replace the base URL (no key needed off api.openai.com)', () => {
    const resolved = resolve(n, { env: { OPENAI_BASE_URL: 'http://env/v1' }, flags: { baseUrl: 'http://flag:1/v1' } });
    expect(resolved).toMatchObject({ provider: { baseUrl: 'http://flag:1/v1' }, sources: { baseUrl: '--base-url flag' } });
    expect(resolve(node('plan', { llm_model: 'cheap' }), { text: FILE, flags: { baseUrl: 'http://other/v1' } }).provider.baseUrl).toBe('http://other/v1');
  });

  it('lets the file configure openai: its fields win, a missing base_url still falls back to the environment', () => {
    const text = 'providers:\n  openai:\n    api_key_env: WORK_OPENAI_KEY\n    timeout: 30s\n';
    const resolved = resolve(n, { text, env: { WORK_OPENAI_KEY: 'sk-work-99999999abcd', OPENAI_BASE_URL: 'https://proxy.example/v1' } });
    expect(resolved.provider).toEqual({
      name: 'openai',
      kind: 'openai',
      baseUrl: 'https://proxy.example/v1',
      apiKey: 'sk-work-99999999abcd',
      apiKeyEnv: 'WORK_OPENAI_KEY',
      headers: {},
      timeoutMs: 30_000,
    });
    expect(resolve(n, { text: 'providers:\n  openai: { timeout: 30s }\n' }).provider).toMatchObject({ baseUrl: 'https://api.openai.com/v1', apiKeyEnv: 'OPENAI_API_KEY' });
    const local = resolve(n, { text: 'providers:\n  openai: { base_url: "http://127.0.0.1:8080/v1" }\n', env: {} });
    expect(local.provider).toMatchObject({ baseUrl: 'http://127.0.0.1:8080/v1', apiKeyEnv: 'OPENAI_API_KEY' });
    expect(local.provider.apiKey).toBeUndefined();
  });

  it('names the file when the key variable came from it', () => {
    const error = thrown(() => resolve(n, { text: 'providers:\n  openai:\n    api_key_env: WORK_OPENAI_KEY\n', env: KEY }));
    expect(error.code).toBe('ORCH_NO_API_KEY');
    expect(error.message).toBe(
      `node plan uses provider openai (https://api.openai.com/v1), which needs an API key: set the environment variable WORK_OPENAI_KEY (providers.openai.api_key_env at ${CFG}:3:18)`,
    );
  });

  it('fails for a configured provider whose key variable is unset, even off api.openai.com', () => {
    const error = thrown(() => resolve(node('plan', { llm_model: 'm', llm_provider: 'groq' }), { text: FILE, env: {} }));
    expect(error.message).toBe(
      `node plan uses provider groq (https://api.groq.com/openai/v1), which needs an API key: set the environment variable GROQ_API_KEY (providers.groq.api_key_env at ${CFG}:9:18)`,
    );
  });

  it('does not need the key for the cli backend', () => {
    expect(resolve(n, { env: {}, flags: { backend: 'cli' } }).sources.apiKey).toBe('OPENAI_API_KEY is not set; the cli backend does not use it');
  });
});
