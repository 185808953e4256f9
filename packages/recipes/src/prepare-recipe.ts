import { join } from 'node:path';
import { loadPipeline, type Diagnostic, type Graph } from '@orchestra/core';
import { checkRecipe } from './check-recipe.js';
import { compileRecipe, type CompiledRecipe } from './compile-recipe.js';
import { RECIPE_HANDLER_TYPES } from './handlers/recipe-handlers.js';
import { RecipeError } from './recipe-error.js';
import { jsonText } from './handlers/recipe-attributes.js';
import { loadRecipe, openProject, type LoadedRecipe, type RecipeProject } from './recipe-project.js';
import type { RecipeTool } from './tool-types.js';

/** A recipe ready to run for one task: checked, compiled, loaded as a pipeline. */
export interface PreparedRecipe {
  loaded: LoadedRecipe;
  compiled: CompiledRecipe;
  graph: Graph;
  /** The compiled pipeline's warnings (errors refuse the recipe). */
  diagnostics: Diagnostic[];
  /** A name for the compiled pipeline in messages: `<recipe file> (compiled)`. */
  file: string;
}

/** The tool catalogue of a check: the tools given, by name. */
function catalogue(tools: readonly RecipeTool[]): Map<string, RecipeTool> {
  return new Map(tools.map((t) => [t.name, t]));
}

/**
 * Loads recipe `id` of `project`, checks its wiring (`ORCH_RECIPE` listing
 * every problem, each `file:line:col`), and compiles it for `task` into a
 * pipeline the engine runs.
 */
export function prepareRecipe(project: RecipeProject, id: string, task: string, tools: readonly RecipeTool[]): PreparedRecipe {
  if (!task.trim()) throw new RecipeError('ORCH_RECIPE', 'a recipe runs for a task: give it with --task "<what to do>"');
  const loaded = loadRecipe(project, id);
  const problems = checkRecipe(loaded, project, catalogue(tools));
  if (problems.length) throw new RecipeError('ORCH_RECIPE', `recipe ${id} cannot run:\n${problems.join('\n')}`);
  const compiled = compileRecipe(loaded, project, task);
  const file = `${loaded.file} (compiled)`;
  const pipeline = loadPipeline(compiled.dot, { file, knownHandlerTypes: RECIPE_HANDLER_TYPES });
  if (!pipeline.ok || !pipeline.graph) {
    throw new RecipeError('ORCH_RECIPE', `recipe ${id} compiled to a pipeline that does not validate (a bug; please report it):\n${pipeline.diagnostics.map((d) => `${d.rule}: ${d.message}`).join('\n')}`);
  }
  return { loaded, compiled, graph: pipeline.graph, diagnostics: pipeline.diagnostics, file };
}

/**
 * The file a compiled recipe's run records as its pipeline's (it is not
 * written): in the project's directory, so the project's orchestra.yaml is
 * found next to it, when the run starts and when it is resumed.
 */
export function compiledRecipeFile(project: RecipeProject, id: string): string {
  return join(project.dir, `${id}.recipe.dot`);
}

/** Whether a pipeline is a compiled recipe (it has recipe nodes). */
export function isRecipePipeline(graph: Pick<Graph, 'attributes'>): boolean {
  return typeof graph.attributes['recipe.id'] === 'string' && graph.attributes['recipe.id'] !== '';
}

/**
 * What changed in the recipe a run was compiled from, since: the recipe
 * file compiled again (for the same task and project) against the run's
 * pipeline, node by node. `undefined` when nothing did (or the recipe file
 * is gone: the run's own copy is whole, so it can still go on).
 */
export function recipeChange(graph: Graph, tools: readonly RecipeTool[]): string | undefined {
  const id = graph.attributes['recipe.id'];
  const projectDir = jsonText(graph, 'recipe.project');
  if (!id || !projectDir) return undefined;
  let now: PreparedRecipe;
  try {
    now = prepareRecipe(openProject(projectDir), id, jsonText(graph, 'recipe.task') ?? graph.attributes.goal ?? '', tools);
  } catch (error) {
    if (error instanceof RecipeError && error.code === 'ORCH_RECIPE_NOT_FOUND') return undefined;
    return `recipe ${id} no longer compiles: ${error instanceof Error ? error.message.split('\n').slice(0, 3).join(' ') : String(error)}`;
  }
  // Steps only: each agent step's gate and skip nodes come and go with it.
  const step = (id: string) => !/_(failed|skip)$/.test(id);
  const before = [...graph.nodes.keys()].filter(step);
  const after = [...now.graph.nodes.keys()].filter(step);
  const added = after.filter((n) => !graph.nodes.has(n));
  const removed = before.filter((n) => !now.graph.nodes.has(n));
  if (added.length || removed.length) return `recipe ${id} changed its steps since this run started (${[...removed.map((n) => `${n} removed`), ...added.map((n) => `${n} added`)].join(', ')})`;
  for (const [nodeId, node] of graph.nodes) {
    const other = now.graph.nodes.get(nodeId) as (typeof node);
    const keys = new Set([...Object.keys(node.attributes), ...Object.keys(other.attributes)]);
    for (const key of keys) {
      if (node.attributes[key] !== other.attributes[key]) return `recipe ${id} changed since this run started: step ${nodeId}, ${key.replace(/^recipe\./, '')} is different in ${now.loaded.file}${key.startsWith('recipe.template') ? ' or its template' : ''}`;
    }
  }
  return undefined;
}

/** Throws `ORCH_RECIPE_CHANGED` (naming the change) when the recipe a run was compiled from changed since; see {@link recipeChange}. */
export function assertRecipeUnchanged(graph: Graph, tools: readonly RecipeTool[]): void {
  const change = recipeChange(graph, tools);
  if (change) throw new RecipeError('ORCH_RECIPE_CHANGED', change);
}
