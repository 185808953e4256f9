import { describe, expect, it } from 'vitest';
import { configuredEndpoints, emptyConfig } from '../../src/config/index.js';
import { configOf } from './helpers.js';

const CFG = '/cfg/orchestra.yaml';
const FILE = ['providers:', '  local:', '    base_url: http://127.0.0.1:8080/v1', '  groq:', '    base_url: https://api.groq.com/openai/v1', '    api_key_env: GROQ_API_KEY', ''].join('\n');

describe('configuredEndpoints', () => {
  it('is empty when nothing configures an endpoint', () => {
    expect(configuredEndpoints({ config: emptyConfig('/work'), env: {}, flags: {} })).toEqual([]);
  });

  it('lists the built-in provider when OPENAI_BASE_URL alone is set, with no model named and no key', () => {
    expect(configuredEndpoints({ config: emptyConfig('/work'), env: { OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1' }, flags: {} })).toEqual([
      {
        provider: { name: 'openai', kind: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', apiKeyEnv: 'OPENAI_API_KEY', headers: {} },
        sources: { baseUrl: 'environment OPENAI_BASE_URL', apiKey: 'OPENAI_API_KEY is not set' },
      },
    ]);
  });

  it('lists OpenAI itself when only OPENAI_API_KEY is set, with the key', () => {
    const [only, ...rest] = configuredEndpoints({ config: emptyConfig('/work'), env: { OPENAI_API_KEY: 'sk-test-000000001234' }, flags: {} });
    expect(rest).toEqual([]);
    expect(only?.provider).toMatchObject({ name: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-test-000000001234' });
  });

  it("lists every provider of orchestra.yaml in file order, without refusing a provider whose key variable is unset", () => {
    const endpoints = configuredEndpoints({ config: configOf(FILE), env: { GROQ_API_KEY: 'gsk-1234' }, flags: {} });
    expect(endpoints.map((e) => [e.provider.name, e.provider.baseUrl, e.provider.apiKey])).toEqual([
      ['local', 'http://127.0.0.1:8080/v1', undefined],
      ['groq', 'https://api.groq.com/openai/v1', 'gsk-1234'],
    ]);
    expect(endpoints[0]?.sources.baseUrl).toBe(`${CFG}:3:15 providers.local.base_url`);
    const noKey = configuredEndpoints({ config: configOf(FILE), env: {}, flags: {} });
    expect(noKey[1]?.provider.apiKey).toBeUndefined();
    expect(noKey[1]?.sources.apiKey).toBe('GROQ_API_KEY is not set');
  });

  it('points every provider at --base-url, and lists the built-in one for it', () => {
    const endpoints = configuredEndpoints({ config: configOf(FILE), env: {}, flags: { baseUrl: 'http://127.0.0.1:9000/v1' } });
    expect(endpoints.map((e) => `${e.provider.name} ${e.provider.baseUrl} (${e.sources.baseUrl})`)).toEqual([
      'openai http://127.0.0.1:9000/v1 (--base-url flag)',
      'local http://127.0.0.1:9000/v1 (--base-url flag)',
      'groq http://127.0.0.1:9000/v1 (--base-url flag)',
    ]);
  });

  it('leaves out an OPENAI_BASE_URL that is not a URL (resolving a stage reports it)', () => {
    expect(configuredEndpoints({ config: configOf(FILE), env: { OPENAI_BASE_URL: 'localhost:8080' }, flags: {} }).map((e) => e.provider.name)).toEqual(['local', 'groq']);
  });
});
