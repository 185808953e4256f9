import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readConfigFile } from '@orchestra/llm/config';
import { fixturePath } from '@orchestra/testing';
import type { JsonValue } from '@orchestra/core';
import { evaluateCheck } from '../../src/dod.js';
import { RecipeSchema, type Recipe } from '../../src/recipe-schema.js';
import { resolveArgs } from '../../src/slot-refs.js';
import { builtInTool } from '../../src/tools/built-in-tools.js';

const PROJECT = fixturePath('manuscript');
/** The agent workspace of the project's orchestra.yaml (`agent.workspace: book`). */
const WORKSPACE = join(PROJECT, 'book');
const RECIPES_DIR = join(PROJECT, 'recipes');
const TEMPLATES_DIR = join(RECIPES_DIR, 'templates');

/**
 * The seed's recipe map (control-room-execution-modes.md, "Task Types and
 * Recipe Map"): phase-A tools and phase-B roles in order. The foreshadowing
 * audit runs without reader_experience_simulator, which is not a tool yet;
 * scene validation adds canon_checker.
 */
const RECIPE_MAP: Record<string, { tools: string[]; agents: string[] }> = {
  creative_draft_scene: { tools: ['file_locator', 'outline_analyzer', 'canon_checker'], agents: ['planner', 'writer', 'editor', 'continuity', 'critic'] },
  analytical_consistency: { tools: ['file_locator', 'consistency_checker'], agents: ['continuity', 'editor'] },
  analytical_prose: { tools: ['file_locator', 'prose_analyzer'], agents: ['writer', 'critic'] },
  analytical_foreshadow: { tools: ['file_locator', 'stakes_mapper'], agents: ['critic', 'planner', 'writer'] },
  // canon_checker added: the continuity step has nothing to check without the canon's evidence.
  analytical_scene_validate: { tools: ['file_locator', 'scene_draft_validator', 'canon_checker'], agents: ['planner', 'continuity'] },
  structural_canon: { tools: ['file_locator', 'canon_checker'], agents: ['continuity', 'librarian'] },
  structural_outline: { tools: ['file_locator', 'outline_analyzer'], agents: ['planner', 'critic'] },
};

const recipeFiles = readdirSync(RECIPES_DIR).filter((n) => n.endsWith('.yaml') && n !== 'router.yaml');

function loadRecipe(id: string): Recipe {
  const result = RecipeSchema.safeParse(parse(readFileSync(join(RECIPES_DIR, `${id}.yaml`), 'utf8')));
  if (!result.success) throw new Error(`${id}.yaml: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return result.data;
}

const recipes = Object.keys(RECIPE_MAP).map((id) => [id, loadRecipe(id)] as const);

/** `$slot`, `$slot[0]`, `$slot.field` references in any string of a value. */
function refs(value: unknown): { slot: string; field?: string }[] {
  if (typeof value === 'string') return [...value.matchAll(/\$([A-Za-z_]\w*)((?:\[\d+\]|\.[A-Za-z_]\w*)*)/g)].map((m) => ({ slot: m[1] as string, ...(m[2]?.startsWith('.') ? { field: m[2].slice(1).split(/[.[]/)[0] as string } : {}) }));
  if (Array.isArray(value)) return value.flatMap(refs);
  if (value && typeof value === 'object') return Object.values(value).flatMap(refs);
  return [];
}

/** A tiny wiring check: each reference and input is filled by an earlier step, each slot written once. */
function wiringProblems(recipe: Recipe): string[] {
  const problems: string[] = [];
  const filled = new Set<string>(['TASK_DESCRIPTION']);
  const need = (slot: string, where: string) => {
    if (!filled.has(slot)) problems.push(`${where}: $${slot} is not filled by an earlier step`);
  };
  const fill = (slot: string, where: string) => {
    if (filled.has(slot)) problems.push(`${where}: ${slot} is filled twice`);
    filled.add(slot);
  };
  for (const [i, step] of (recipe.phase_a?.steps ?? []).entries()) {
    for (const ref of refs(step.args ?? {})) need(ref.slot, `phase_a.steps[${i}].args`);
    for (const out of step.outputs) fill(out, `phase_a.steps[${i}].outputs`);
  }
  for (const [i, step] of recipe.phase_b.pipeline.entries()) {
    for (const slot of step.input ?? []) need(slot, `phase_b.pipeline[${i}].input`);
    fill(step.output, `phase_b.pipeline[${i}].output`);
  }
  for (const [i, check] of (recipe.dod ?? []).entries()) for (const ref of refs(Object.values(check))) need(ref.slot, `dod[${i}]`);
  return problems;
}

function template(name: string): string {
  return readFileSync(join(TEMPLATES_DIR, name), 'utf8');
}

describe('the example recipes of fixtures/manuscript/recipes', () => {
  it('are the seven of the recipe map, one file each, named by recipe_id', () => {
    expect(recipeFiles.sort()).toEqual(Object.keys(RECIPE_MAP).map((id) => `${id}.yaml`).sort());
    for (const [id, recipe] of recipes) expect(recipe.recipe_id).toBe(id);
  });

  it.each(recipes)('%s follows the recipe map: its tools, then its roles in order, then checks', (id, recipe) => {
    expect(recipe.phase_a?.steps.map((s) => s.tool)).toEqual(RECIPE_MAP[id]?.tools);
    expect(recipe.phase_b.pipeline.map((s) => s.agent)).toEqual(RECIPE_MAP[id]?.agents);
    expect(recipe.phase_a?.steps[0]?.args).toEqual({ search: '$TASK_DESCRIPTION' });
    expect(recipe.dod?.length).toBeGreaterThan(0);
  });

  it.each(recipes)('%s is wired: every $slot and input is filled by an earlier step, each slot once', (_id, recipe) => {
    expect(wiringProblems(recipe)).toEqual([]);
  });

  it('the wiring check itself finds a slot read before it is filled, and one filled twice', () => {
    const bad = RecipeSchema.parse({
      recipe_id: 'bad',
      phase_a: { steps: [{ tool: 'file_locator', args: { search: '$TASK_DESCRIPTION', x: '$later[0]' }, outputs: ['a'] }] },
      phase_b: { pipeline: [{ agent: 'writer', input: ['a', 'nothing'], output: 'later', prompt_type: 't' }, { agent: 'critic', output: 'a', prompt_type: 't' }] },
      dod: [{ ok: '$ghost.pass == true' }],
    });
    expect(wiringProblems(bad)).toEqual([
      'phase_a.steps[0].args: $later is not filled by an earlier step',
      'phase_b.pipeline[0].input: $nothing is not filled by an earlier step',
      'phase_b.pipeline[1].output: a is filled twice',
      'dod[0]: $ghost is not filled by an earlier step',
    ]);
  });

  it('every agent is a role of orchestra.yaml, which still validates', () => {
    const roles = Object.keys(readConfigFile(join(PROJECT, 'orchestra.yaml')).config.roles ?? {});
    expect(roles).toEqual(expect.arrayContaining(['critic', 'continuity', 'editor', 'planner', 'writer', 'librarian']));
    for (const [id, recipe] of recipes) for (const step of recipe.phase_b.pipeline) expect(roles, `${id}: ${step.agent}`).toContain(step.agent);
  });

  it('every prompt_type has a template, every template is used, and at least two have tier variants', () => {
    const used = new Set(recipes.flatMap(([, r]) => r.phase_b.pipeline.map((s) => s.prompt_type)));
    for (const type of used) expect(existsSync(join(TEMPLATES_DIR, `${type}.md`)), `${type}.md`).toBe(true);
    const files = readdirSync(TEMPLATES_DIR);
    for (const file of files) {
      const match = /^([A-Za-z][\w-]*?)(?:\.(t1|t3|t5))?\.md$/.exec(file);
      expect(match, file).not.toBeNull();
      expect(used, file).toContain(match?.[1]);
    }
    expect(new Set(files.filter((f) => /\.t[135]\.md$/.test(f)).map((f) => f.split('.')[0])).size).toBeGreaterThanOrEqual(2);
  });

  it("templates use only the engine's placeholders, name only their step's input slots, and say nothing of recipes or plans", () => {
    for (const [id, recipe] of recipes) {
      for (const step of recipe.phase_b.pipeline) {
        const files = readdirSync(TEMPLATES_DIR).filter((f) => f === `${step.prompt_type}.md` || f.startsWith(`${step.prompt_type}.t`));
        for (const file of files) {
          const text = template(file);
          const where = `${id} ${step.output} ← ${file}`;
          for (const [placeholder] of text.matchAll(/\{\{[^}]*\}\}/g)) {
            expect(placeholder, where).toMatch(/^\{\{(task|role|inputs|(input|data)\.[A-Za-z_]\w*)\}\}$/);
            const slot = /^\{\{(?:input|data)\.(\w+)\}\}$/.exec(placeholder)?.[1];
            if (slot) expect(step.input ?? [], `${where}: ${placeholder}`).toContain(slot);
          }
          expect(text, where).not.toMatch(/\brecipes?\b|\bplans?\b|\bpipelines?\b|\bsession\b|\bphase\b|\bslots?\b/i);
          expect(text.split('\n').length, where).toBeLessThanOrEqual(25);
        }
      }
    }
  });

  it('a check that reads a field of an agent output has a template asking for a JSON object with that field', () => {
    for (const [id, recipe] of recipes) {
      for (const ref of refs((recipe.dod ?? []).flatMap((c) => Object.values(c)))) {
        const step = recipe.phase_b.pipeline.find((s) => s.output === ref.slot);
        if (!step || !ref.field) continue;
        const files = readdirSync(TEMPLATES_DIR).filter((f) => f === `${step.prompt_type}.md` || f.startsWith(`${step.prompt_type}.t`));
        for (const file of files) {
          const text = template(file);
          expect(text, `${id}: ${file}`).toMatch(/only (a )?JSON/);
          expect(text, `${id}: ${file}`).toContain(`"${ref.field}":`);
        }
      }
    }
  });

  it.each(recipes)('%s calls each built-in tool with the arguments it needs, for outputs it gives', (id, recipe) => {
    for (const step of recipe.phase_a?.steps ?? []) {
      const tool = builtInTool(step.tool);
      expect(tool, `${id}: ${step.tool}`).toBeDefined();
      for (const arg of tool?.requiredArgs ?? []) expect(Object.keys(step.args ?? {}), `${id}: ${step.tool}`).toContain(arg);
      for (const out of step.outputs) expect(tool?.outputs ?? [], `${id}: ${step.tool}`).toContain(out);
    }
  });
});

/** A task the router sends to each recipe, for a run of its phase A against the sample book. */
const TASKS: Record<string, string> = {
  creative_draft_scene: 'Rewrite scene 1.2 so the tension rises to the end',
  analytical_consistency: 'Check scene 2 for continuity errors',
  analytical_prose: 'Review the pacing of scene 2',
  analytical_foreshadow: 'Foreshadowing audit',
  analytical_scene_validate: 'Validate scene 2',
  structural_canon: "Add Crane's burned letter to canon.md",
  structural_outline: 'Restructure the outline of chapter 2',
};

/** Phase A as the tools run it: arguments resolved from earlier slots, each output filled from the data key of its name. */
async function runPhaseA(recipe: Recipe, task: string): Promise<Map<string, JsonValue>> {
  const slots = new Map<string, JsonValue>();
  const scope = { task, slot: (name: string) => slots.get(name) };
  for (const step of recipe.phase_a?.steps ?? []) {
    const tool = builtInTool(step.tool);
    if (!tool) throw new Error(`no tool ${step.tool}`);
    const args = resolveArgs((step.args ?? {}) as JsonValue, scope) as Record<string, JsonValue>;
    const { data } = await tool.run(args, { workspace: WORKSPACE, signal: new AbortController().signal });
    const record = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, JsonValue>) : {};
    for (const out of step.outputs) slots.set(out, step.outputs.length > 1 || out in record ? (record[out] ?? null) : data);
  }
  return slots;
}

describe('phase A of each example recipe against the sample book', () => {
  it.each(recipes)('%s: every tool runs and fills its slots; the checks on tool slots pass', async (id, recipe) => {
    const task = TASKS[id] as string;
    const slots = await runPhaseA(recipe, task);
    for (const step of recipe.phase_a?.steps ?? []) for (const out of step.outputs) expect(slots.get(out), `${id}: ${out}`).not.toBeNull();
    const scope = { task, slot: (name: string) => slots.get(name) };
    for (const check of recipe.dod ?? []) {
      const [name, expression] = Object.entries(check)[0] as [string, string];
      const slot = /^\s*\$(\w+)/.exec(expression)?.[1] as string;
      if (!slots.has(slot)) continue; // an agent's output: not written here
      expect(evaluateCheck({ name, expression }, scope, WORKSPACE), `${id}: ${name}`).toMatchObject({ passed: true });
    }
  });

  it('the tools find what the sample book plants: the named scene first, the brown eyes against the canon', async () => {
    const consistency = await runPhaseA(recipes.find(([id]) => id === 'analytical_consistency')?.[1] as Recipe, TASKS.analytical_consistency as string);
    expect(consistency.get('scenePaths')).toEqual(['scenes/scene-02.md', 'scenes/scene-01.md']);
    expect(JSON.stringify(consistency.get('consistency_report'))).toContain('Her brown eyes were wide in the lamplight.');
    const canon = await runPhaseA(recipes.find(([id]) => id === 'structural_canon')?.[1] as Recipe, TASKS.structural_canon as string);
    expect(JSON.stringify(canon.get('matches'))).toContain('turning a folded letter over in his right hand');
  });
});
