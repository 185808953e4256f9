import type { ProviderKind } from './built-in-providers.js';
import type { Backend } from './config-schema.js';

/** The endpoint a node's model is reached through. */
export interface ResolvedProvider {
  /** Provider name (`openai`, `anthropic`, or a key of `providers`). */
  name: string;
  /** The API it speaks. */
  kind: ProviderKind;
  /** Base URL of its API. */
  baseUrl: string;
  /** The API key; undefined when the provider needs none. */
  apiKey?: string;
  /** Name of the environment variable the key is read from, when there is one. */
  apiKeyEnv?: string;
  /** Extra HTTP headers. */
  headers: Record<string, string>;
  /** Per-request timeout in milliseconds, when configured. */
  timeoutMs?: number;
}

/** Which model, where and how, for one node, with where each value came from. */
export interface ResolvedModel {
  backend: Backend;
  /** The provider-native model id (an alias is expanded); undefined only for the `cli` backend. */
  model?: string;
  provider: ResolvedProvider;
  reasoningEffort?: 'low' | 'medium' | 'high';
  temperature?: number;
  maxTokens?: number;
  /** The alias of `models` the name expanded from, if any. */
  alias?: string;
  /** Where each value came from, in words a user can act on (`--model flag`, `/x/orchestra.yaml:12:12 defaults.model`, ...). */
  sources: Record<'backend' | 'model' | 'provider' | 'baseUrl' | 'apiKey', string>;
}

/** Per-run overrides from the command line; they beat the pipeline and the configuration. */
export interface ModelFlags {
  /** `--model`: an alias or a provider-native id. */
  model?: string;
  /**
   * The model of the stages that name none (`--model` of `orchestra chat`
   * and `orchestra mcp`): unlike {@link ModelFlags.model} it does not
   * override a node's `llm_model`; it beats `defaults.model`.
   */
  defaultModel?: string;
  /** `--base-url`: replaces the provider's base URL. */
  baseUrl?: string;
  /** `--backend`. */
  backend?: Backend;
}
