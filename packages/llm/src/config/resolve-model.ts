import type { GraphNode } from '@orchestra/core';
import { REASONING_EFFORTS } from '@orchestra/core/loader';
import { BACKENDS, BUILT_IN_PROVIDER, type Backend, type ModelAlias } from './config-schema.js';
import { configSource } from './config-source.js';
import type { Env } from './env.js';
import type { LoadedConfig } from './load-config.js';
import { ModelConfigError } from './model-config-error.js';
import { attributeSource, nodeAttribute } from './node-attribute.js';
import { resolveProvider, type ProviderChoice } from './resolve-provider.js';
import type { ModelFlags, ResolvedModel } from './resolved-model.js';
import { familyProvider } from './built-in-providers.js';

/** Inputs of {@link resolveModel}. */
export interface ResolveModelInput {
  config: LoadedConfig;
  env: Env;
  flags: ModelFlags;
  /** False: a provider whose key variable is unset resolves without a key instead of being refused (a replayed run calls no provider). Default true. */
  requireKey?: boolean;
}

interface Sourced<T> {
  value: T;
  source: string;
}

function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}

function badAttribute(node: GraphNode, name: string, value: string, allowed: readonly string[]): ModelConfigError {
  return new ModelConfigError('ORCH_BAD_ATTRIBUTE', node.id, `${attributeSource(node, name)} is ${JSON.stringify(value)}; expected one of ${allowed.join(', ')}`);
}

function chooseBackend(node: GraphNode, { config, flags }: ResolveModelInput): Sourced<Backend> {
  if (flags.backend) return { value: flags.backend, source: '--backend flag' };
  const attr = nodeAttribute(node, 'agent.backend');
  if (attr !== undefined) {
    if (!isOneOf(BACKENDS, attr)) throw badAttribute(node, 'agent.backend', attr, BACKENDS);
    return { value: attr, source: attributeSource(node, 'agent.backend') };
  }
  const configured = config.config.defaults?.backend;
  if (configured) return { value: configured, source: configSource(config, ['defaults', 'backend']) };
  return { value: 'chat', source: 'built-in default' };
}

function chooseModelName(node: GraphNode, { config, flags }: ResolveModelInput): Sourced<string> | undefined {
  if (flags.model) return { value: flags.model, source: '--model flag' };
  const attr = nodeAttribute(node, 'llm_model');
  if (attr !== undefined) return { value: attr, source: attributeSource(node, 'llm_model') };
  if (flags.defaultModel) return { value: flags.defaultModel, source: '--model flag (for stages that name no model)' };
  const configured = config.config.defaults?.model;
  if (configured) return { value: configured, source: configSource(config, ['defaults', 'model']) };
  return undefined;
}

function chooseProvider(node: GraphNode, { config, flags }: ResolveModelInput, alias: string | undefined, entry: ModelAlias | undefined, model: string | undefined): ProviderChoice {
  if (!flags.model) {
    const attr = nodeAttribute(node, 'llm_provider');
    if (attr !== undefined) return { name: attr, source: attributeSource(node, 'llm_provider'), fromNode: true };
  }
  if (alias !== undefined && entry?.provider) return { name: entry.provider, source: configSource(config, ['models', alias, 'provider']), fromNode: false };
  const configured = config.config.defaults?.provider;
  if (configured) return { name: configured, source: configSource(config, ['defaults', 'provider']), fromNode: false };
  // A model id that names its family (claude-*) picks its provider.
  const family = familyProvider(model);
  if (family !== undefined) return { name: family, source: `the model id ${JSON.stringify(model)} (a model of ${family})`, fromNode: false };
  const names = Object.keys(config.config.providers ?? {});
  if (names.length === 1) {
    const only = names[0] as string;
    return { name: only, source: `${configSource(config, ['providers', only])} (the only configured provider)`, fromNode: false };
  }
  return { name: BUILT_IN_PROVIDER, source: 'built-in default', fromNode: false };
}

/**
 * Decides the backend, model and provider of one node. Flags beat the
 * pipeline, the pipeline (node attributes, the model stylesheet included)
 * beats `orchestra.yaml`, which beats the built-in defaults:
 *
 * - backend: `--backend` → `agent.backend` → `defaults.backend` → `chat`;
 * - model: `--model` → `llm_model` → the flags' `defaultModel` (`--model`
 *   of chat and mcp) → `defaults.model`; an alias of `models` expands to its
 *   model, provider, reasoning effort, temperature, max tokens;
 * - provider: `llm_provider` (ignored under `--model`) → the alias's →
 *   `defaults.provider` → the model id's family (`claude-*`: `anthropic`) →
 *   the only configured provider → `openai`;
 * - reasoning effort: `reasoning_effort` → the alias's.
 *
 * Throws {@link ModelConfigError}: `ORCH_NO_MODEL` (nothing names a model;
 * not for the `cli` backend), `ORCH_NO_PROVIDER`, `ORCH_NO_API_KEY`,
 * `ORCH_BAD_ATTRIBUTE`.
 */
export function resolveModel(node: GraphNode, input: ResolveModelInput): ResolvedModel {
  const backend = chooseBackend(node, input);
  const name = chooseModelName(node, input);
  if (name === undefined && backend.value !== 'cli') {
    // Nothing at all configured (a first run): say everything that is needed at once.
    const nothing = input.config.files.length === 0 && !input.env.OPENAI_API_KEY?.trim() && !input.env.OPENAI_BASE_URL?.trim() && !input.flags.baseUrl;
    throw new ModelConfigError(
      'ORCH_NO_MODEL',
      node.id,
      nothing
        ? `node ${node.id} has no model and no provider is configured: set OPENAI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible server) and pass --model <name>, or write an orchestra.yaml (docs/models.md)`
        : `node ${node.id} has no model: pass --model <name>, set llm_model on the node (or in model_stylesheet), or set defaults.model in orchestra.yaml`,
    );
  }
  const effort = nodeAttribute(node, 'reasoning_effort');
  if (effort !== undefined && !isOneOf(REASONING_EFFORTS, effort)) throw badAttribute(node, 'reasoning_effort', effort, REASONING_EFFORTS);
  const models = input.config.config.models ?? {};
  const alias = name !== undefined && Object.hasOwn(models, name.value) ? name.value : undefined;
  const entry = alias === undefined ? undefined : models[alias];
  const { provider, sources } = resolveProvider({ node, config: input.config, env: input.env, flags: input.flags, backend: backend.value, choice: chooseProvider(node, input, alias, entry, entry?.model ?? name?.value), ...(input.requireKey === false ? { requireKey: false } : {}) });

  const resolved: ResolvedModel = {
    backend: backend.value,
    provider,
    sources: { backend: backend.source, model: name?.source ?? 'not needed by the cli backend', ...sources },
  };
  const model = entry?.model ?? name?.value;
  if (model !== undefined) resolved.model = model;
  if (alias !== undefined) resolved.alias = alias;
  const reasoningEffort = effort ?? entry?.reasoning_effort;
  if (reasoningEffort !== undefined) resolved.reasoningEffort = reasoningEffort;
  if (entry?.temperature !== undefined) resolved.temperature = entry.temperature;
  if (entry?.max_tokens !== undefined) resolved.maxTokens = entry.max_tokens;
  return resolved;
}
