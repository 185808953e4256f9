import type { GraphNode } from '@orchestra/core';
import { BUILT_IN_PROVIDER } from './config-schema.js';
import { envValue, type Env } from './env.js';
import type { LoadedConfig } from './load-config.js';
import { ModelConfigError } from './model-config-error.js';
import { knownProviders } from './provider-names.js';
import { resolveProvider } from './resolve-provider.js';
import type { ModelFlags, ResolvedModel, ResolvedProvider } from './resolved-model.js';
import { builtInProvider } from './built-in-providers.js';

/** An endpoint the configuration sets up, whether or not a stage uses it. */
export interface ConfiguredEndpoint {
  /** The endpoint as a stage using this provider would reach it (its key only when its variable is set). */
  provider: ResolvedProvider;
  /** Where the base URL and the key came from, in words. */
  sources: Pick<ResolvedModel['sources'], 'baseUrl' | 'apiKey'>;
}

/** Inputs of {@link configuredEndpoints}. */
export interface ConfiguredEndpointsInput {
  config: LoadedConfig;
  env: Env;
  flags: ModelFlags;
}

/** The node named in errors that cannot happen here (they are skipped); resolution needs one. */
function endpointNode(provider: string): GraphNode {
  return { id: `(provider ${provider})`, attributes: {}, origins: {}, subgraphClasses: [] };
}

/** Whether a built-in provider is set up: by its environment (base URL or key), a file entry, or (for `openai`) `--base-url`. */
function builtInConfigured(name: string, { config, env, flags }: ConfiguredEndpointsInput): boolean {
  const builtIn = builtInProvider(name);
  if (!builtIn) return true;
  if (envValue(env, builtIn.baseUrlEnv) || builtIn.apiKeyEnvs.some((name) => envValue(env, name))) return true;
  if (name === BUILT_IN_PROVIDER && flags.baseUrl) return true;
  return Object.hasOwn(config.config.providers ?? {}, name);
}

/**
 * Every endpoint the configuration names, whether or not a model is named:
 * the built-in `openai` when `OPENAI_BASE_URL`, `OPENAI_API_KEY` or
 * `--base-url` is set (or `orchestra.yaml` configures it), then each provider
 * of `orchestra.yaml` in file order. Each is resolved as a stage would reach
 * it (`--base-url` replaces every base URL), except that a key whose
 * variable is unset is left out rather than refused. A provider whose base
 * URL is unusable (a bad `OPENAI_BASE_URL`) is left out: resolving a stage
 * reports it.
 */
export function configuredEndpoints(input: ConfiguredEndpointsInput): ConfiguredEndpoint[] {
  const names = knownProviders(input.config.config).filter((name) => builtInConfigured(name, input));
  const endpoints: ConfiguredEndpoint[] = [];
  for (const name of names) {
    try {
      const { provider, sources } = resolveProvider({
        node: endpointNode(name),
        config: input.config,
        env: input.env,
        flags: input.flags,
        backend: 'chat',
        choice: { name, source: 'configured', fromNode: false },
        requireKey: false,
      });
      endpoints.push({ provider, sources: { baseUrl: sources.baseUrl, apiKey: sources.apiKey } });
    } catch (error) {
      if (!(error instanceof ModelConfigError)) throw error;
    }
  }
  return endpoints;
}
