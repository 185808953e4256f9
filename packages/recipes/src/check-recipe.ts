import { closest } from '@orchestra/core/loader';
import { roleNames } from '@orchestra/llm/config';
import { dodExpressionProblem } from './dod.js';
import type { LoadedRecipe, RecipeProject } from './recipe-project.js';
import { templateFiles } from './recipe-project.js';
import { ARGS, TASK_DESCRIPTION } from './recipe-schema.js';
import { refsIn, refsInText } from './slot-refs.js';
import type { RecipeTool } from './tool-types.js';

/** The tools a recipe may call: registered ones by name (declared command tools are added from the recipe). */
export type ToolCatalogue = ReadonlyMap<string, Pick<RecipeTool, 'name' | 'outputs' | 'requiredArgs'>>;

/**
 * Checks a recipe's wiring without running it: every tool is registered or
 * declared, every role is defined in orchestra.yaml, every `prompt_type` has
 * a template, every `$slot` (in args, inputs and checks) is filled by an
 * earlier step, no slot is filled twice, every check is an expression a
 * check can evaluate. Gives each problem as `file:line:col: key.path: message`.
 */
export function checkRecipe(loaded: LoadedRecipe, project: RecipeProject, tools: ToolCatalogue): string[] {
  const { recipe, file } = loaded;
  const problems: { at: { line: number; column: number }; text: string }[] = [];
  const problem = (path: (string | number)[], text: string) => problems.push({ at: loaded.position(path), text: `${path.join('.')}: ${text}` });
  const filled = new Map<string, string>(); // slot -> the step that fills it
  const fill = (slot: string, path: (string | number)[], by: string) => {
    if (slot === ARGS || slot === TASK_DESCRIPTION) return problem(path, `${slot} names the run's ${slot === ARGS ? 'arguments' : 'task'} ($${slot}); choose another slot name`);
    const before = filled.get(slot);
    if (before) problem(path, `slot ${slot} is filled by ${before} already; a slot is written once`);
    else filled.set(slot, by);
  };
  const need = (slot: string, path: (string | number)[], ref: string) => {
    if (slot !== TASK_DESCRIPTION && slot !== ARGS && !filled.has(slot)) problem(path, `${ref} is not filled by an earlier step${filled.size ? ` (filled so far: ${[...filled.keys()].join(', ')})` : ''}`);
  };
  const declared = new Set(Object.keys(recipe.tools ?? {}));

  for (const [i, step] of (recipe.phase_a?.steps ?? []).entries()) {
    const path = ['phase_a', 'steps', i];
    const tool = tools.get(step.tool);
    if (!tool && !declared.has(step.tool)) {
      const known = [...new Set([...tools.keys(), ...declared])].sort();
      const hint = closest(step.tool, known, 3);
      problem([...path, 'tool'], `${JSON.stringify(step.tool)} is not a tool (the tools are: ${known.join(', ')})${hint ? `: did you mean ${JSON.stringify(hint)}?` : ''}`);
    }
    for (const ref of refsIn(step.args ?? {})) need(ref.slot, [...path, 'args'], ref.text);
    for (const arg of tool?.requiredArgs ?? []) if (!(arg in (step.args ?? {}))) problem([...path, 'args'], `${step.tool} needs the argument ${arg}`);
    if (tool?.outputs && step.outputs.length > 1) {
      for (const [j, out] of step.outputs.entries()) if (!tool.outputs.includes(out)) problem([...path, 'outputs', j], `${step.tool} gives no ${out} (it gives ${tool.outputs.join(', ')})`);
    }
    for (const [j, out] of step.outputs.entries()) fill(out, [...path, 'outputs', j], `phase_a step ${i + 1} (${step.tool})`);
  }

  const roles = new Set(roleNames(project.config));
  for (const [i, step] of recipe.phase_b.pipeline.entries()) {
    const path = ['phase_b', 'pipeline', i];
    if (!roles.has(step.agent)) {
      const hint = closest(step.agent, roles, 3);
      problem([...path, 'agent'], `${JSON.stringify(step.agent)} is not a role of ${project.config.files[0] ?? 'orchestra.yaml (none found)'} (the roles are: ${[...roles].join(', ') || 'none'})${hint ? `: did you mean ${JSON.stringify(hint)}?` : ''}`);
    }
    const templates = templateFiles(project, step.prompt_type);
    if (templates.base === undefined && Object.keys(templates.tiers).length === 0) problem([...path, 'prompt_type'], `there is no template ${step.prompt_type}.md in ${project.recipesDir}/templates`);
    for (const [j, slot] of (step.input ?? []).entries()) need(slot, [...path, 'input', j], slot);
    fill(step.output, [...path, 'output'], `phase_b step ${i + 1} (${step.agent})`);
  }

  for (const [i, check] of (recipe.dod ?? []).entries()) {
    const [name, expression] = Object.entries(check)[0] as [string, string];
    const path = ['dod', i, name];
    const bad = dodExpressionProblem(expression);
    if (bad) problem(path, bad);
    for (const ref of refsInText(expression)) need(ref.slot, path, ref.text);
  }
  return problems.sort((a, b) => a.at.line - b.at.line || a.at.column - b.at.column).map((p) => `${file}:${p.at.line}:${p.at.column}: ${p.text}`);
}
