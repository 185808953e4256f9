import type { Graph, RunContext } from '@orchestra/core';

/** A comma-separated attribute as a list. */
export function listOf(text: string | undefined): string[] {
  return (text ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

/** The task a compiled recipe runs: the context's `task` when a front end set it, else the graph's goal. */
export function taskOf(graph: Graph, context: Pick<RunContext, 'get'>): string {
  const task = context.get('task');
  return typeof task === 'string' && task ? task : (graph.attributes.goal ?? '');
}

/** Where a compiled recipe's tools work: the workspace it was compiled for, else the run's working directory. */
export function workspaceOf(graph: Graph, workdir: string): string {
  return graph.attributes['recipe.workspace'] || workdir;
}
