import { resolveHandlerType, type Graph } from '@orchestra/core';

/** Handler types that run commands or read files on the server's machine. */
const COMMAND_TYPES: ReadonlySet<string> = new Set(['tool', 'pipeline', 'stack.manager_loop']);

/** A part of a pipeline that would run commands (or read files) where the server runs. */
export interface CommandUse {
  nodeId: string | null;
  what: string;
  line: number | null;
  column: number | null;
}

function isHookKey(key: string): boolean {
  return key.startsWith('tool_hooks.');
}

/**
 * What in a pipeline runs shell commands or reads files by path on the
 * server's machine: tool nodes, sub-pipelines and manager loops, and
 * `tool_hooks.*` attributes (graph or node). A server refuses such a
 * pipeline unless it was started with `--allow-tools`.
 */
export function commandUses(graph: Graph): CommandUse[] {
  const uses: CommandUse[] = [];
  for (const key of Object.keys(graph.attributes)) {
    if (isHookKey(key)) uses.push({ nodeId: null, what: `graph attribute ${key}`, line: graph.location?.line ?? null, column: graph.location?.column ?? null });
  }
  for (const node of graph.nodes.values()) {
    const type = resolveHandlerType(node);
    const at = { line: node.location?.line ?? null, column: node.location?.column ?? null };
    if (COMMAND_TYPES.has(type)) uses.push({ nodeId: node.id, what: `node ${node.id} (${type})`, ...at });
    for (const key of Object.keys(node.attributes)) if (isHookKey(key)) uses.push({ nodeId: node.id, what: `node ${node.id} attribute ${key}`, ...at });
  }
  return uses;
}
