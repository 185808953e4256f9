import type { Graph, GraphNode } from './model.js';

/** Shape → handler type, the canonical mapping of spec §2.8. */
export const SHAPE_HANDLER_TYPES: Readonly<Record<string, string>> = {
  Mdiamond: 'start',
  Msquare: 'exit',
  box: 'codergen',
  hexagon: 'wait.human',
  diamond: 'conditional',
  component: 'parallel',
  tripleoctagon: 'parallel.fan_in',
  parallelogram: 'tool',
  house: 'stack.manager_loop',
};

/** Handler types orchestra knows out of the box: those of the shapes, `pipeline` (a sub-pipeline node) and `conference` (both chosen with `type`). */
export const BUILT_IN_HANDLER_TYPES: readonly string[] = [...Object.values(SHAPE_HANDLER_TYPES), 'pipeline', 'conference'];

/** Handler types whose nodes call models: they need a backend to run. */
export const LLM_HANDLER_TYPES: ReadonlySet<string> = new Set(['codergen', 'conference']);

/** The handler type used when neither `type` nor `shape` decides. */
export const DEFAULT_HANDLER_TYPE = 'codergen';

/** A node's shape, defaulting to `box` (spec §2.6). */
export function nodeShape(node: GraphNode): string {
  return node.attributes.shape || 'box';
}

/** Resolves a node's handler type: explicit `type`, then shape, then `codergen` (spec §3.2). */
export function resolveHandlerType(node: GraphNode): string {
  const explicit = node.attributes.type;
  if (explicit) return explicit;
  const shape = nodeShape(node);
  return Object.hasOwn(SHAPE_HANDLER_TYPES, shape) ? (SHAPE_HANDLER_TYPES[shape] as string) : DEFAULT_HANDLER_TYPE;
}

/** Whether any node of a pipeline calls models (handler type `codergen` or `conference`): it needs a backend to run. */
export function hasLlmStages(graph: Pick<Graph, 'nodes'>): boolean {
  for (const node of graph.nodes.values()) if (LLM_HANDLER_TYPES.has(resolveHandlerType(node))) return true;
  return false;
}
