import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { JsonValue } from '@orchestra/core';
import { agentSettings, loadConfig, type LoadedConfig } from '@orchestra/llm/config';
import { RecipeError } from './recipe-error.js';
import { RECIPE_NAME, RecipeSchema, type Recipe } from './recipe-schema.js';
import { parseYamlData, readYamlWith, type YamlPosition } from './yaml-data.js';

/** Where a project keeps its recipes, router and templates: `<project>/recipes/`. */
export const RECIPES_DIR = 'recipes';
/** The templates of phase-B prompts: `<project>/recipes/templates/<prompt_type>[.<tier>].md`. */
export const TEMPLATES_DIR = 'templates';

/** A project recipes run in: its directory, its orchestra.yaml, the workspace its tools work in. */
export interface RecipeProject {
  dir: string;
  config: LoadedConfig;
  /** The agent workspace of its orchestra.yaml (the project directory by default): where phase-A tools read. */
  workspace: string;
  recipesDir: string;
}

/** Opens a project: its orchestra.yaml (next to it, as for a pipeline there) and its recipes directory. */
export function openProject(dir: string, options: { home?: string; env?: NodeJS.ProcessEnv } = {}): RecipeProject {
  const abs = resolve(dir);
  const config = loadConfig({ pipelineFile: join(abs, 'project.dot'), cwd: abs, ...(options.home ? { home: options.home } : {}), env: options.env ?? process.env });
  return { dir: abs, config, workspace: agentSettings(config).workspace, recipesDir: join(abs, RECIPES_DIR) };
}

/** A recipe read from its file, with where each value is written (for messages). */
export interface LoadedRecipe {
  recipe: Recipe;
  file: string;
  text: string;
  position(path: readonly PropertyKey[]): YamlPosition;
}

/** The file of recipe `id` (`<id>.yaml`, `.yml` or `.json`), if there is one. */
export function recipeFile(project: RecipeProject, id: string): string | undefined {
  if (!RECIPE_NAME.test(id)) return undefined;
  return ['.yaml', '.yml', '.json'].map((ext) => join(project.recipesDir, `${id}${ext}`)).find((f) => existsSync(f));
}

/** The ids of the project's recipes. */
export function listRecipes(project: RecipeProject): string[] {
  let names: string[];
  try {
    names = readdirSync(project.recipesDir);
  } catch {
    return [];
  }
  return names
    .filter((n) => /\.(ya?ml|json)$/.test(n) && !/^router\./.test(n))
    .map((n) => n.replace(/\.(ya?ml|json)$/, ''))
    .sort();
}

/** Reads and validates a recipe file (`ORCH_RECIPE` with `file:line:col` when it is not one). */
export function readRecipeFile(file: string): LoadedRecipe {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new RecipeError('ORCH_RECIPE_NOT_FOUND', `${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { cause: error });
  }
  const result = readYamlWith(text, file, RecipeSchema);
  if (!result.ok) throw new RecipeError('ORCH_RECIPE', result.message);
  const parsed = parseYamlData(text);
  const position = 'error' in parsed ? () => ({ line: 1, column: 1 }) : parsed.position;
  return { recipe: result.value, file, text, position };
}

/** Recipe `id` of the project; `ORCH_RECIPE_NOT_FOUND` naming the recipes there when there is none. */
export function loadRecipe(project: RecipeProject, id: string): LoadedRecipe {
  const file = recipeFile(project, id);
  if (!file) {
    const known = listRecipes(project);
    throw new RecipeError('ORCH_RECIPE_NOT_FOUND', `no recipe ${JSON.stringify(id)} in ${project.recipesDir} (${known.length ? `the recipes are ${known.join(', ')}` : 'it has none'})`);
  }
  const loaded = readRecipeFile(file);
  if (loaded.recipe.recipe_id !== id) {
    const at = loaded.position(['recipe_id']);
    throw new RecipeError('ORCH_RECIPE', `${file}:${at.line}:${at.column}: recipe_id: is ${JSON.stringify(loaded.recipe.recipe_id)}; a recipe's id is its file's name (${id})`);
  }
  return loaded;
}

/** The template files a prompt type may use: `<type>.md`, and `<type>.t1.md` / `.t3.md` / `.t5.md` for tiers. */
export function templateFiles(project: RecipeProject, promptType: string): { base?: string; tiers: Partial<Record<'T1' | 'T3' | 'T5', string>> } {
  const dir = join(project.recipesDir, TEMPLATES_DIR);
  const read = (name: string): string | undefined => {
    try {
      return readFileSync(join(dir, name), 'utf8');
    } catch {
      return undefined;
    }
  };
  const base = read(`${promptType}.md`);
  const tiers: Partial<Record<'T1' | 'T3' | 'T5', string>> = {};
  for (const tier of ['T1', 'T3', 'T5'] as const) {
    const text = read(`${promptType}.${tier.toLowerCase()}.md`);
    if (text !== undefined) tiers[tier] = text;
  }
  return { ...(base !== undefined ? { base } : {}), tiers };
}

/** JSON data for a recipe's `args`, as written. */
export type RecipeArgs = Record<string, JsonValue>;
