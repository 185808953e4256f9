import type { GraphNode } from '@orchestra/core';
import { configSource } from './config-source.js';
import { resolveModel, type ResolveModelInput } from './resolve-model.js';
import type { ResolvedModel } from './resolved-model.js';

/** The node the chat session agent's model is resolved for (no pipeline attributes; its id names it in messages). */
export const CHAT_SESSION_NODE: GraphNode = { id: 'chat_session', attributes: {}, origins: {}, subgraphClasses: [] };

/**
 * The model of `orchestra chat`'s session agent, apart from the runs' (the
 * seed's separate backend): `chat.model` in `orchestra.yaml`, else the
 * flags' model (`--model`), else `defaults.model`; an alias expands as for
 * any stage, and the provider, base URL and key are resolved as for a
 * stage that names that model. Always the `chat` backend. Throws as
 * {@link resolveModel} does.
 */
export function resolveChatModel(input: ResolveModelInput): ResolvedModel {
  const chosen = input.config.config.chat?.model;
  const flags = { ...input.flags, backend: 'chat' as const };
  if (chosen === undefined) return resolveModel(CHAT_SESSION_NODE, { ...input, flags });
  const resolved = resolveModel(CHAT_SESSION_NODE, { ...input, flags: { ...flags, model: chosen } });
  return { ...resolved, sources: { ...resolved.sources, model: configSource(input.config, ['chat', 'model']) } };
}
