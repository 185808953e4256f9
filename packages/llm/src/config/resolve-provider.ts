import type { GraphNode } from '@orchestra/core';
import { parseDuration } from '@orchestra/core/loader';
import { builtInProvider } from './built-in-providers.js';
import type { Backend, ProviderConfig } from './config-schema.js';
import { configSource } from './config-source.js';
import { envValue, type Env } from './env.js';
import { formatKeyPath } from './key-path.js';
import type { LoadedConfig } from './load-config.js';
import { ModelConfigError } from './model-config-error.js';
import { isKnownProvider, knownProviders } from './provider-names.js';
import type { ModelFlags, ResolvedModel, ResolvedProvider } from './resolved-model.js';

/** The base URL of the built-in `openai` provider when neither the environment nor a file sets one. */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** The environment variable that overrides the built-in provider's base URL. */
export const OPENAI_BASE_URL_ENV = 'OPENAI_BASE_URL';
/** The environment variable the built-in provider reads its key from. */
export const OPENAI_API_KEY_ENV = 'OPENAI_API_KEY';

/** A provider name and what named it. */
export interface ProviderChoice {
  name: string;
  /** Where the name came from, in words. */
  source: string;
  /** True when the node's `llm_provider` attribute named it (the message then blames the attribute). */
  fromNode: boolean;
}

/** Inputs of {@link resolveProvider}. */
export interface ProviderInput {
  node: GraphNode;
  config: LoadedConfig;
  env: Env;
  flags: ModelFlags;
  backend: Backend;
  choice: ProviderChoice;
  /** False: a key whose variable is unset is left out instead of refused (for checking an endpoint). Default true. */
  requireKey?: boolean;
}

type ProviderSources = Pick<ResolvedModel['sources'], 'provider' | 'baseUrl' | 'apiKey'>;

/** Whether `baseUrl` is the provider's own service (a key is needed), not another server speaking its API. */
function isOfficialHost(host: string, baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname === host;
  } catch {
    return false;
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function unknownProvider(input: ProviderInput): ModelConfigError {
  const { node, config, choice } = input;
  const namedBy = choice.fromNode ? `${choice.source} names provider ${JSON.stringify(choice.name)}` : `node ${node.id} uses provider ${JSON.stringify(choice.name)} from ${choice.source}`;
  return new ModelConfigError(
    'ORCH_NO_PROVIDER',
    node.id,
    `${namedBy}, which is not configured (configured: ${knownProviders(config.config).join(', ')}): add ${formatKeyPath(['providers', choice.name, 'base_url'])} to orchestra.yaml, or use one of those`,
  );
}

function baseUrlOf(input: ProviderInput, entry: ProviderConfig | undefined): { baseUrl: string; source: string } {
  const { flags, env, config, choice } = input;
  if (flags.baseUrl) return { baseUrl: flags.baseUrl, source: '--base-url flag' };
  if (entry?.base_url) return { baseUrl: entry.base_url, source: configSource(config, ['providers', choice.name, 'base_url']) };
  const builtIn = builtInProvider(choice.name);
  const raw = builtIn ? envValue(env, builtIn.baseUrlEnv) : undefined;
  // OLLAMA_HOST is often `host:port`, without a scheme.
  const fromEnv = raw !== undefined && builtIn?.kind === 'ollama' && !/^[a-z]+:\/\//i.test(raw) ? `http://${raw}` : raw;
  if (builtIn && fromEnv) {
    if (!isHttpUrl(fromEnv)) {
      throw new ModelConfigError('ORCH_BAD_URL', input.node.id, `the environment variable ${builtIn.baseUrlEnv} is ${JSON.stringify(fromEnv)}, which is not an http(s) URL; set it to the server's base URL, such as http://127.0.0.1:8080/v1`);
    }
    return { baseUrl: fromEnv, source: `environment ${builtIn.baseUrlEnv}` };
  }
  return { baseUrl: builtIn?.defaultBaseUrl ?? OPENAI_DEFAULT_BASE_URL, source: 'built-in default' };
}

/** The key's variable: the file's `api_key_env` (null: none), else the built-in provider's (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`). */
function apiKeyEnvOf(input: ProviderInput, entry: ProviderConfig | undefined): { name?: string; fromFile: boolean } {
  if (entry && entry.api_key_env !== undefined) return entry.api_key_env === null ? { fromFile: true } : { name: entry.api_key_env, fromFile: true };
  const builtIn = builtInProvider(input.choice.name);
  if (!builtIn || builtIn.apiKeyEnvs.length === 0) return { fromFile: false };
  // The first of its variables that is set (GEMINI_API_KEY, else GOOGLE_API_KEY), else the first to name in messages.
  const set = builtIn.apiKeyEnvs.find((name) => envValue(input.env, name) !== undefined);
  return { name: set ?? (builtIn.apiKeyEnvs[0] as string), fromFile: false };
}

/**
 * Resolves a provider name into an endpoint: base URL (`--base-url` → file →
 * `OPENAI_BASE_URL` for `openai` → the OpenAI URL), key (the value of its
 * `api_key_env`), headers and timeout. Throws `ORCH_NO_PROVIDER` for a name
 * neither configured nor built in, and `ORCH_NO_API_KEY` when the key's
 * variable is unset — except for the built-in `openai` pointed at another
 * server (a local server needs no key), for the `cli` backend and when
 * `requireKey` is false.
 */
export function resolveProvider(input: ProviderInput): { provider: ResolvedProvider; sources: ProviderSources } {
  const { node, config, env, choice, backend } = input;
  if (!isKnownProvider(config.config, choice.name)) throw unknownProvider(input);
  const entry = Object.hasOwn(config.config.providers ?? {}, choice.name) ? config.config.providers?.[choice.name] : undefined;
  const { baseUrl, source: baseUrlSource } = baseUrlOf(input, entry);
  const keyEnv = apiKeyEnvOf(input, entry);
  const builtIn = builtInProvider(choice.name);
  const kind = entry?.kind ?? builtIn?.kind ?? 'openai';
  const provider: ResolvedProvider = { name: choice.name, kind, baseUrl, headers: { ...entry?.headers } };
  const timeoutMs = entry?.timeout === undefined ? undefined : parseDuration(entry.timeout);
  if (timeoutMs !== undefined) provider.timeoutMs = timeoutMs;

  let apiKeySource: string;
  if (keyEnv.name === undefined) {
    apiKeySource = `provider ${choice.name} sets no api_key_env`;
  } else {
    provider.apiKeyEnv = keyEnv.name;
    const key = envValue(env, keyEnv.name);
    if (key !== undefined) {
      provider.apiKey = key;
      apiKeySource = `environment ${keyEnv.name}`;
    } else if (input.requireKey === false) {
      apiKeySource = `${keyEnv.name} is not set`;
    } else if (backend === 'cli') {
      apiKeySource = `${keyEnv.name} is not set; the cli backend does not use it`;
    } else if (!keyEnv.fromFile && builtIn?.officialHost !== undefined && !isOfficialHost(builtIn.officialHost, baseUrl)) {
      apiKeySource = `${keyEnv.name} is not set; not needed for ${baseUrl} (not ${builtIn.officialHost})`;
    } else {
      const path = ['providers', choice.name, 'api_key_env'];
      const where = keyEnv.fromFile ? config.where(path) : undefined;
      throw new ModelConfigError(
        'ORCH_NO_API_KEY',
        node.id,
        `node ${node.id} uses provider ${choice.name} (${baseUrl}), which needs an API key: set the environment variable ${keyEnv.name}${!keyEnv.fromFile && builtIn && builtIn.apiKeyEnvs.length > 1 ? ` (or ${builtIn.apiKeyEnvs.filter((n) => n !== keyEnv.name).join(' or ')})` : ''}${where ? ` (${formatKeyPath(path)} at ${where})` : ''}`,
      );
    }
  }
  return { provider, sources: { provider: choice.source, baseUrl: baseUrlSource, apiKey: apiKeySource } };
}
