import { join } from 'node:path';
import { simulationBackend, RunRefusal, type Graph } from '@orchestra/core';
import { BUILT_IN_TOOLS, HeldPlan, RECIPE_HANDLER_TYPES, openProject } from '@orchestra/recipes';
import { ServerRuns, type ServerRunsOptions } from '../runs/server-runs.js';
import { recipeSetup } from './recipe-setup.js';
import { ServerPlans } from './server-plans.js';

/** Options of {@link projectPlans}: the server's, with its project. */
export interface ProjectPlansOptions extends Omit<ServerRunsOptions, 'runsDir' | 'catalogue'> {
  /** The project directory (its `recipes/`, `orchestra.yaml`, `.orchestra/plan.json`). */
  project: string;
}

/** The graph the chief's calls are made for (they belong to no pipeline). */
const PLAN_GRAPH = { name: 'plan', attributes: {}, nodes: new Map(), edges: [] } as unknown as Graph;

/** Where a project's runs are kept, its plan's task runs among them: `<project>/.orchestra/runs`. */
export function projectRunsDir(project: string): string {
  return join(project, '.orchestra', 'runs');
}

/**
 * A server's runs and plan for a project: runs kept in the project's
 * `.orchestra/runs` (tool commands run in the project), compiled recipes
 * equipped with their handlers (so plan tasks' runs start, resume and show
 * like any other run), and the project's session plan over the same
 * supervisor. The chief plans with the simulation for a simulated plan,
 * else with `backendFor`'s model.
 */
export function projectPlans(options: ProjectPlansOptions): { runs: ServerRuns; plans: ServerPlans } {
  const project = openProject(options.project);
  const runs = new ServerRuns({
    ...options,
    runsDir: projectRunsDir(project.dir),
    workdir: options.workdir ?? project.dir,
    handlerTypes: [...(options.handlerTypes ?? []), ...RECIPE_HANDLER_TYPES],
    equip: (setup) => recipeSetup(options.equip ? options.equip(setup) : setup, { tools: BUILT_IN_TOOLS, ...(options.backendFor ? { backendFor: options.backendFor } : {}) }),
  });
  const held = new HeldPlan({
    project,
    supervisor: runs.supervisor,
    tools: BUILT_IN_TOOLS,
    backend: async (simulate) => {
      if (simulate) return simulationBackend;
      const backend = options.backendFor ? await options.backendFor(PLAN_GRAPH, {}) : undefined;
      if (!backend) throw new RunRefusal('ORCH_NO_BACKEND', 'the chief needs a model and this server has none configured (orchestra.yaml of the project, or --model); propose the plan with "simulate": true to try it with simulated responses');
      return backend;
    },
  });
  return { runs, plans: new ServerPlans(held, { allowTools: options.allowTools === true }) };
}
