import { resolveHandlerType, type Graph, type GraphNode } from '@orchestra/core/loader';

/** The node attributes that name a provider (the stylesheet may have set them). */
const PROVIDER_ATTRIBUTES = ['llm_provider', 'discuss.llm_provider', 'summarize.llm_provider', 'serialize.llm_provider'] as const;

/**
 * The providers every orchestra knows without configuration (@orchestra/llm's
 * BUILT_IN_PROVIDERS; named here so that validate's start-up bundle does not
 * load the LLM package to tell a plain pipeline needs no configuration).
 */
const BUILT_IN: ReadonlySet<string> = new Set(['openai', 'anthropic', 'gemini', 'ollama']);

/** Whether `validate` must read the orchestra.yaml that applies: a conference node (its roles), or a node naming a provider other than the built-in one. */
export function needsConfigCheck(graph: Graph): boolean {
  for (const node of graph.nodes.values()) {
    if (resolveHandlerType(node) === 'conference') return true;
    if (namedProviders(node).some((p) => !BUILT_IN.has(p.name))) return true;
  }
  return false;
}

/** The providers a node names, with the attribute naming each. */
export function namedProviders(node: GraphNode): { attribute: string; name: string }[] {
  return PROVIDER_ATTRIBUTES.flatMap((attribute) => {
    const name = node.attributes[attribute]?.trim();
    return name ? [{ attribute, name }] : [];
  });
}
