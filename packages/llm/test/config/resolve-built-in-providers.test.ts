import type { GraphNode } from '@orchestra/core';
import { describe, expect, it } from 'vitest';
import { ModelConfigError, emptyConfig, resolveModel, type Env, type ModelFlags } from '../../src/config/index.js';
import { configOf, node, thrown } from './helpers.js';

function resolve(n: GraphNode, options: { text?: string; env?: Env; flags?: ModelFlags } = {}) {
  const config = options.text === undefined ? emptyConfig('/work') : configOf(options.text);
  return resolveModel(n, { config, env: options.env ?? {}, flags: options.flags ?? {} });
}

const ANTHROPIC_KEY = { ANTHROPIC_API_KEY: 'sk-ant-test-00000000abcd' };

describe('resolveModel: the built-in anthropic provider', () => {
  it('is known without configuration: its key from ANTHROPIC_API_KEY, its URL Anthropic’s', () => {
    const resolved = resolve(node('draft', { llm_model: 'claude-sonnet-4-5', llm_provider: 'anthropic' }), { env: ANTHROPIC_KEY });
    expect(resolved.provider).toEqual({ name: 'anthropic', kind: 'anthropic', baseUrl: 'https://api.anthropic.com', apiKey: ANTHROPIC_KEY.ANTHROPIC_API_KEY, apiKeyEnv: 'ANTHROPIC_API_KEY', headers: {} });
    expect(resolved.sources).toMatchObject({ baseUrl: 'built-in default', apiKey: 'environment ANTHROPIC_API_KEY' });
  });

  it('is picked by a claude-* model id when nothing names a provider', () => {
    const resolved = resolve(node('draft', { llm_model: 'claude-haiku-4-5' }), { env: ANTHROPIC_KEY });
    expect(resolved.provider.name).toBe('anthropic');
    expect(resolved.sources.provider).toBe('the model id "claude-haiku-4-5" (a model of anthropic)');
    // Through an alias, by the id it expands to; a provider named anywhere wins over the family.
    const text = 'models:\n  writer: { model: claude-opus-4-1 }\n  proxied: { model: claude-opus-4-1, provider: openai }\n';
    expect(resolve(node('d', { llm_model: 'writer' }), { text, env: ANTHROPIC_KEY }).provider.name).toBe('anthropic');
    expect(resolve(node('d', { llm_model: 'proxied' }), { text, env: { OPENAI_API_KEY: 'sk-x-1234567890' } }).provider.name).toBe('openai');
    expect(resolve(node('d', { llm_model: 'gpt-5.2' }), { env: { OPENAI_API_KEY: 'sk-x-1234567890' } }).provider.name).toBe('openai');
  });

  it('needs ANTHROPIC_API_KEY for Anthropic itself, and says so naming the variable', () => {
    const error = thrown(() => resolve(node('draft', { llm_model: 'claude-sonnet-4-5' })));
    expect(error).toBeInstanceOf(ModelConfigError);
    expect((error as ModelConfigError).code).toBe('ORCH_NO_API_KEY');
    expect((error as Error).message).toBe('node draft uses provider anthropic (https://api.anthropic.com), which needs an API key: set the environment variable ANTHROPIC_API_KEY');
  });

  it('takes ANTHROPIC_BASE_URL, and needs no key for a server that is not Anthropic’s', () => {
    const resolved = resolve(node('draft', { llm_model: 'claude-sonnet-4-5' }), { env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9999' } });
    expect(resolved.provider).toMatchObject({ name: 'anthropic', kind: 'anthropic', baseUrl: 'http://127.0.0.1:9999' });
    expect(resolved.provider.apiKey).toBeUndefined();
    expect(resolved.sources.baseUrl).toBe('environment ANTHROPIC_BASE_URL');
  });

  it('a configured provider speaks Anthropic’s API with kind: anthropic', () => {
    const text = 'providers:\n  work:\n    kind: anthropic\n    base_url: https://gateway.example/anthropic\n    api_key_env: WORK_KEY\n';
    const resolved = resolve(node('draft', { llm_model: 'claude-sonnet-4-5', llm_provider: 'work' }), { text, env: { WORK_KEY: 'k-0000000001' } });
    expect(resolved.provider).toMatchObject({ name: 'work', kind: 'anthropic', baseUrl: 'https://gateway.example/anthropic', apiKey: 'k-0000000001' });
  });
});

describe('resolveModel: the built-in gemini and ollama providers', () => {
  it('gemini: gemini-* picks it; its key from GEMINI_API_KEY, else GOOGLE_API_KEY; a missing key names both', () => {
    const viaGemini = resolve(node('d', { llm_model: 'gemini-2.5-flash' }), { env: { GEMINI_API_KEY: 'g-key-000000001', GOOGLE_API_KEY: 'other' } });
    expect(viaGemini.provider).toMatchObject({ name: 'gemini', kind: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com', apiKey: 'g-key-000000001', apiKeyEnv: 'GEMINI_API_KEY' });
    const viaGoogle = resolve(node('d', { llm_model: 'gemini-2.5-flash' }), { env: { GOOGLE_API_KEY: 'google-key-01' } });
    expect(viaGoogle.provider).toMatchObject({ apiKey: 'google-key-01', apiKeyEnv: 'GOOGLE_API_KEY' });
    const error = thrown(() => resolve(node('d', { llm_model: 'gemini-2.5-flash' })));
    expect((error as Error).message).toBe('node d uses provider gemini (https://generativelanguage.googleapis.com), which needs an API key: set the environment variable GEMINI_API_KEY (or GOOGLE_API_KEY)');
  });

  it('ollama: named by llm_provider; OLLAMA_HOST with or without a scheme; no key', () => {
    const local = resolve(node('d', { llm_model: 'llama3.2', llm_provider: 'ollama' }));
    expect(local.provider).toEqual({ name: 'ollama', kind: 'ollama', baseUrl: 'http://127.0.0.1:11434', headers: {} });
    expect(resolve(node('d', { llm_model: 'llama3.2', llm_provider: 'ollama' }), { env: { OLLAMA_HOST: 'gpu-box:11434' } }).provider.baseUrl).toBe('http://gpu-box:11434');
    expect(resolve(node('d', { llm_model: 'llama3.2', llm_provider: 'ollama' }), { env: { OLLAMA_HOST: 'https://ollama.example' } }).provider.baseUrl).toBe('https://ollama.example');
  });
});
