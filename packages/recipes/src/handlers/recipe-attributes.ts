import type { Graph, RunContext } from '@orchestra/core';

/** A comma-separated attribute as a list. */
export function listOf(text: string | undefined): string[] {
  return (text ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

/** The task a compiled recipe runs: the context's `task` when a front end set it, else the one it was compiled for. */
export function taskOf(graph: Graph, context: Pick<RunContext, 'get'>): string {
  const task = context.get('task');
  if (typeof task === 'string' && task) return task;
  return jsonText(graph, 'recipe.task') ?? graph.attributes.goal ?? '';
}

/** A graph attribute a compiled recipe writes as a JSON string (a path, the task); undefined when absent. */
export function jsonText(graph: Pick<Graph, 'attributes'>, key: string): string | undefined {
  const written = graph.attributes[key];
  if (!written) return undefined;
  const value = JSON.parse(written) as unknown;
  return typeof value === 'string' ? value : undefined;
}

/** Where a compiled recipe's tools work: the workspace it was compiled for, else the run's working directory. */
export function workspaceOf(graph: Graph, workdir: string): string {
  return jsonText(graph, 'recipe.workspace') || workdir;
}
