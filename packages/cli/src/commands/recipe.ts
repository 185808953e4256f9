import { resolve } from 'node:path';
import { escapeControl, isOrchestraError } from '@orchestra/core/loader';
import { ExitCode } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { recipeExtension } from '../recipe-extension.js';
import { terminalJson } from '../render/terminal-json.js';
import { initialContext, runLoaded, type RunCommandFlags } from './run.js';

/** `--project DIR`: where the recipes, router and orchestra.yaml are (default the working directory). */
export interface ProjectFlags {
  project?: string;
}

function fail(io: CliIO, error: unknown): number {
  if (!isOrchestraError(error)) throw error;
  io.stderr(`orchestra: ${escapeControl(error.message)}\n`);
  return ExitCode.usage;
}

async function openProject(flags: ProjectFlags) {
  const recipes = await import('@orchestra/recipes');
  return { recipes, project: recipes.openProject(resolve(flags.project ?? '.')) };
}

/**
 * `orchestra recipe validate [id...]`: checks each recipe of the project (all
 * when none is named) without running it: the file, then its wiring (tools,
 * roles, templates, every `$slot` filled before it is read, no slot filled
 * twice). Prints `file:line:col` problems; exit 1 when a recipe has one.
 */
export async function recipeValidateCommand(ids: readonly string[], flags: ProjectFlags, io: CliIO): Promise<number> {
  let opened;
  try {
    opened = await openProject(flags);
  } catch (error) {
    return fail(io, error);
  }
  const { recipes, project } = opened;
  const names = ids.length ? ids : recipes.listRecipes(project);
  if (names.length === 0) {
    io.stderr(`orchestra: no recipes in ${project.recipesDir}\n`);
    return ExitCode.usage;
  }
  let code: number = ExitCode.ok;
  const tools = new Map(recipes.BUILT_IN_TOOLS.map((t) => [t.name, t]));
  for (const id of names) {
    try {
      const loaded = recipes.loadRecipe(project, id);
      const problems = recipes.checkRecipe(loaded, project, tools);
      for (const p of problems) io.stdout(`${escapeControl(p)}\n`);
      io.stdout(`${escapeControl(loaded.file)}: ${problems.length ? `invalid: ${problems.length} problem${problems.length === 1 ? '' : 's'}` : 'valid'}\n`);
      if (problems.length) code = ExitCode.failed;
    } catch (error) {
      if (!isOrchestraError(error)) throw error;
      io.stdout(`${escapeControl(error.message)}\n`);
      code = error.code === 'ORCH_RECIPE_NOT_FOUND' ? ExitCode.usage : ExitCode.failed;
    }
  }
  return code;
}

/** `orchestra recipe show <id> [--task T] [--dot]`: the recipe's steps, or (`--dot`) the pipeline it compiles to. */
export async function recipeShowCommand(id: string, flags: ProjectFlags & { task?: string; dot?: boolean }, io: CliIO): Promise<number> {
  try {
    const { recipes, project } = await openProject(flags);
    const prepared = recipes.prepareRecipe(project, id, flags.task ?? '(the task)', recipes.BUILT_IN_TOOLS);
    if (flags.dot) {
      io.stdout(prepared.compiled.dot);
      return ExitCode.ok;
    }
    io.stdout(`${escapeControl(prepared.loaded.file)}\n`);
    for (const step of prepared.compiled.steps) io.stdout(`  ${step.kind === 'tool' ? 'tool ' : step.kind === 'agent' ? 'agent' : 'check'} ${escapeControl(step.id)}\n`);
    return ExitCode.ok;
  } catch (error) {
    return fail(io, error);
  }
}

/**
 * `orchestra recipe run <id> --task "<text>"`: compiles the recipe for the
 * task and runs the pipeline as `orchestra run` runs one (the same flags:
 * `--simulate`, `--auto-approve`, `--answers`, `--park`, `--logs-dir`, ...);
 * a failed agent step asks what to do (stop, retry, skip); exit 3 when it is
 * parked, 1 when the Definition of Done fails.
 */
export async function recipeRunCommand(id: string, flags: RunCommandFlags & ProjectFlags & { task?: string }, io: CliIO): Promise<number> {
  const initial = await initialContext(flags);
  if (typeof initial === 'string') {
    io.stderr(`orchestra: ${escapeControl(initial)}\n`);
    return ExitCode.usage;
  }
  let prepared;
  let sourceFile: string;
  try {
    const { recipes, project } = await openProject(flags);
    prepared = recipes.prepareRecipe(project, id, flags.task ?? '', recipes.BUILT_IN_TOOLS);
    sourceFile = recipes.compiledRecipeFile(project, id);
  } catch (error) {
    return fail(io, error);
  }
  return runLoaded({ source: prepared.compiled.dot, graph: prepared.graph, diagnostics: prepared.diagnostics, file: prepared.file, sourceFile, context: { ...initial, task: flags.task ?? '' } }, flags, io, await recipeExtension());
}

/** `orchestra route "<task>" [--json]`: the recipe `recipes/router.yaml` picks for a task (no model). */
export async function routeCommand(task: string, flags: ProjectFlags & { json?: boolean }, io: CliIO): Promise<number> {
  try {
    const { recipes, project } = await openProject(flags);
    const router = recipes.loadRouter(resolve(project.recipesDir, 'router.yaml'), { recipes: recipes.listRecipes(project) });
    const result = recipes.routeTask(task, router);
    if (flags.json) io.stdout(`${terminalJson(result, 2)}\n`);
    else {
      io.stdout(`recipe_id: ${result.recipe_id ?? '(none)'}\n`);
      io.stdout(`initial_args: ${escapeControl(JSON.stringify(result.initial_args))}\n`);
      io.stdout(`routable: ${result.routable}\n`);
    }
    return result.routable ? ExitCode.ok : ExitCode.failed;
  } catch (error) {
    return fail(io, error);
  }
}
