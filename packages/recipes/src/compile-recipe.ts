import { dotJson, dotQuote } from './dot-text.js';
import { templateFiles, type LoadedRecipe, type RecipeProject } from './recipe-project.js';
import type { AgentStep, ToolStep } from './recipe-schema.js';

/** Handler types of a compiled recipe's nodes. */
export const RECIPE_NODE_TYPES = { tool: 'recipe.tool', agent: 'recipe.agent', skip: 'recipe.skip', stop: 'recipe.stop', dod: 'recipe.dod' } as const;

/** A node id from a name: letters, digits and `_` only. */
function idPart(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, '_');
}

function attrs(entries: [string, string][]): string {
  return entries.map(([k, v]) => `${k.includes('.') ? `"${k}"` : k}=${v}`).join(', ');
}

/** The compiled DOT of a recipe for one task, and its steps' node ids. */
export interface CompiledRecipe {
  dot: string;
  /** Node ids in order: phase A, phase B, the DoD node (when there are checks). */
  steps: { id: string; kind: 'tool' | 'agent' | 'dod'; name: string }[];
}

/**
 * Compiles a recipe and a task into an ordinary pipeline: start → one
 * `recipe.tool` node per phase-A step (no model) → one `recipe.agent` node
 * per phase-B step (a role, no tools) → a `recipe.dod` node → exit. Each
 * agent step's failure goes to a human gate: stop (first, what
 * `--auto-approve` takes), retry, or skip (its slot left null). Everything
 * a step needs is in its attributes (args, outputs, templates, the
 * workspace), so the run directory's copy of the pipeline describes the run
 * whole.
 */
export function compileRecipe(loaded: LoadedRecipe, project: RecipeProject, task: string): CompiledRecipe {
  const { recipe } = loaded;
  const name = `recipe_${idPart(recipe.recipe_id)}`;
  const lines: string[] = [`digraph ${name} {`];
  lines.push(`  graph [${attrs([
    ['goal', dotQuote(task)],
    ['recipe.task', dotJson(task)],
    ['label', dotQuote(recipe.recipe_id)],
    ['recipe.id', dotQuote(recipe.recipe_id)],
    // Paths as JSON strings: they come back exactly, whatever characters they hold.
    ['recipe.file', dotJson(loaded.file)],
    ['recipe.project', dotJson(project.dir)],
    ['recipe.workspace', dotJson(project.workspace)],
    ['default_max_retries', '0'],
  ])}]`);
  lines.push('  start [shape=Mdiamond]', '  exit [shape=Msquare]');
  const steps: CompiledRecipe['steps'] = [];
  const chain: string[] = ['start'];

  for (const [i, step] of (recipe.phase_a?.steps ?? []).entries()) {
    const id = `a${i + 1}_${idPart(step.tool)}`;
    lines.push(`  ${id} [${toolAttrs(step, recipe.tools?.[step.tool])}]`);
    steps.push({ id, kind: 'tool', name: step.tool });
    chain.push(id);
  }
  lines.push(`  ${chain.join(' -> ')}`);

  let previous = chain[chain.length - 1] as string;
  const gates: string[] = [];
  const agents = recipe.phase_b.pipeline;
  const afterAgents = recipe.dod?.length ? 'dod' : 'exit';
  for (const [i, step] of agents.entries()) {
    const id = `b${i + 1}_${idPart(step.agent)}`;
    const next = i + 1 < agents.length ? `b${i + 2}_${idPart((agents[i + 1] as AgentStep).agent)}` : afterAgents;
    lines.push(`  ${id} [${agentAttrs(step, project)}]`);
    lines.push(`  ${previous} -> ${id}`);
    // No automatic retry in phase B: a failure asks the person.
    const gate = `${id}_failed`;
    lines.push(`  ${gate} [shape=hexagon, label=${dotQuote(`The ${step.agent} step (${step.prompt_type}) failed. Stop the run, retry the step, or skip it (${step.output} stays empty)?`)}]`);
    lines.push(`  ${id} -> ${gate} [condition="outcome=fail"]`);
    lines.push(`  ${gate} -> stop [label="[X] Stop"]`, `  ${gate} -> ${id} [label="[R] Retry"]`, `  ${gate} -> ${id}_skip [label="[S] Skip"]`);
    lines.push(`  ${id}_skip [${attrs([['type', dotQuote(RECIPE_NODE_TYPES.skip)], ['label', dotQuote(`skip ${step.agent}`)], ['recipe.agent', dotQuote(step.agent)], ['recipe.output', dotQuote(step.output)]])}]`);
    lines.push(`  ${id}_skip -> ${next}`);
    gates.push(gate);
    steps.push({ id, kind: 'agent', name: step.agent });
    previous = id;
  }
  if (recipe.dod?.length) {
    const checks = recipe.dod.map((c) => {
      const [n, expression] = Object.entries(c)[0] as [string, string];
      return { name: n, expression };
    });
    lines.push(`  dod [${attrs([['type', dotQuote(RECIPE_NODE_TYPES.dod)], ['label', dotQuote('Definition of Done')], ['recipe.checks', dotJson(checks)]])}]`);
    steps.push({ id: 'dod', kind: 'dod', name: 'dod' });
  }
  lines.push(`  ${previous} -> ${afterAgents}`);
  if (afterAgents === 'dod') lines.push('  dod -> exit');
  if (gates.length) {
    lines.push(`  stop [${attrs([['type', dotQuote(RECIPE_NODE_TYPES.stop)], ['label', dotQuote('stopped')]])}]`);
    // Never taken (a stop fails the run); it keeps the stop node from being a dead end.
    lines.push('  stop -> exit [condition="outcome=success"]');
  }
  lines.push('}');
  return { dot: `${lines.join('\n')}\n`, steps };
}

function toolAttrs(step: ToolStep, command: { command: string[]; timeout?: string | undefined } | undefined): string {
  const entries: [string, string][] = [
    ['type', dotQuote(RECIPE_NODE_TYPES.tool)],
    ['label', dotQuote(step.tool)],
    ['recipe.tool', dotQuote(step.tool)],
    ['recipe.args', dotJson(step.args ?? {})],
    ['recipe.outputs', dotQuote(step.outputs.join(','))],
  ];
  if (command) {
    entries.push(['recipe.command', dotJson(command.command)]);
    if (command.timeout) entries.push(['recipe.timeout', dotQuote(command.timeout)]);
  }
  return attrs(entries);
}

function agentAttrs(step: AgentStep, project: RecipeProject): string {
  const templates = templateFiles(project, step.prompt_type);
  const entries: [string, string][] = [
    ['type', dotQuote(RECIPE_NODE_TYPES.agent)],
    ['label', dotQuote(`${step.agent}: ${step.prompt_type}`)],
    ['recipe.agent', dotQuote(step.agent)],
    ['recipe.input', dotQuote((step.input ?? []).join(','))],
    ['recipe.output', dotQuote(step.output)],
    ['recipe.prompt_type', dotQuote(step.prompt_type)],
  ];
  // Templates as JSON strings: their text comes back byte for byte (backslashes included).
  if (templates.base !== undefined) entries.push(['recipe.template', dotJson(templates.base)]);
  for (const [tier, text] of Object.entries(templates.tiers)) entries.push([`recipe.template.${tier.toLowerCase()}`, dotJson(text)]);
  return attrs(entries);
}
