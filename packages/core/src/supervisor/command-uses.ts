import { resolveHandlerType } from '../graph/handler-types.js';
import type { Graph } from '../graph/model.js';

/** Handler types that run commands or read files on the machine that runs them. */
const COMMAND_TYPES: ReadonlySet<string> = new Set(['tool', 'pipeline', 'stack.manager_loop']);

/** A part of a pipeline that would run commands (or read files) on the machine that runs it. */
export interface CommandUse {
  nodeId: string | null;
  what: string;
  line: number | null;
  column: number | null;
}

function isHookKey(key: string): boolean {
  return key.startsWith('tool_hooks.');
}

/** LLM stage backends that give the model tools of its own (files, commands) or run a configured command. */
export const TOOL_BACKENDS: ReadonlySet<string> = new Set(['agent', 'cli']);

/** Node attributes that name files on the machine (phased stages' schema and checks; `zod:` schemas are code). */
function namedFile(key: string, value: string): boolean {
  if (key === 'output.schema') return value.trim() !== '' && !value.trim().startsWith('zod:');
  return key === 'output.checks' && value.trim() !== '';
}

/**
 * What in a pipeline runs shell commands or reads files by path on the
 * machine that runs it: tool nodes, sub-pipelines and manager loops,
 * `tool_hooks.*` attributes (graph or node), LLM stages on the `agent` or
 * `cli` backend or given `agent.tools`, and files a phased stage names
 * (`output.schema`, `output.checks`). A server (or a chat) refuses such a
 * pipeline unless it was started with `--allow-tools`.
 */
export function commandUses(graph: Graph): CommandUse[] {
  const uses: CommandUse[] = [];
  for (const key of Object.keys(graph.attributes)) {
    if (isHookKey(key) || key === 'stack.child_dotfile') uses.push({ nodeId: null, what: `graph attribute ${key}`, line: graph.location?.line ?? null, column: graph.location?.column ?? null });
  }
  for (const node of graph.nodes.values()) {
    const type = resolveHandlerType(node);
    const at = { line: node.location?.line ?? null, column: node.location?.column ?? null };
    if (COMMAND_TYPES.has(type)) uses.push({ nodeId: node.id, what: `node ${node.id} (${type})`, ...at });
    // The chief of a conference reads (with conference.tools, maybe writes or runs) the workspace.
    else if (type === 'conference') uses.push({ nodeId: node.id, what: `node ${node.id} (conference: its chief calls workspace tools)`, ...at });
    // A compiled recipe's tool step reads the project's files, or runs the command the recipe declares.
    else if (type === 'recipe.tool') uses.push({ nodeId: node.id, what: `node ${node.id} (recipe tool ${node.attributes['recipe.tool'] ?? ''}${node.attributes['recipe.command'] ? ', a command' : ''})`, ...at });
    const attrs = node.attributes;
    for (const key of Object.keys(attrs)) {
      const value = attrs[key] ?? '';
      if (isHookKey(key) || key === 'agent.tools' || namedFile(key, value)) uses.push({ nodeId: node.id, what: `node ${node.id} attribute ${key}`, ...at });
      else if (key === 'agent.backend' && TOOL_BACKENDS.has(value.trim()) && type === 'codergen') uses.push({ nodeId: node.id, what: `node ${node.id} agent.backend=${value.trim()}`, ...at });
    }
  }
  return uses;
}
