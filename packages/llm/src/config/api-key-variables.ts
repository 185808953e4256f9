import { BUILT_IN_PROVIDERS } from './built-in-providers.js';
import type { Env } from './env.js';
import type { LoadedConfig } from './load-config.js';

/**
 * Names of the environment variables that hold provider keys: every
 * built-in provider's (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`,
 * `GEMINI_API_KEY`, `GOOGLE_API_KEY`) and each configured provider's
 * `api_key_env`. Commands an agent runs never see them; cassettes never
 * hold their values.
 */
export function apiKeyVariables(config: LoadedConfig): string[] {
  const names = new Set<string>();
  for (const provider of Object.values(BUILT_IN_PROVIDERS)) for (const name of provider.apiKeyEnvs) names.add(name);
  for (const provider of Object.values(config.config.providers ?? {})) if (provider?.api_key_env) names.add(provider.api_key_env);
  return [...names];
}

/** The values of {@link apiKeyVariables} that are set in `env` (what a recording must not contain). */
export function apiKeyValues(config: LoadedConfig, env: Env): string[] {
  return apiKeyVariables(config)
    .map((name) => env[name]?.trim())
    .filter((value): value is string => value !== undefined && value !== '');
}
