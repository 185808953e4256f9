import { join } from 'node:path';
import type { CodergenBackend } from '@orchestra/core';
import type { RecipeProject } from '../recipe-project.js';
import { listRecipes } from '../recipe-project.js';
import { loadRouter, routeTask, type RouteResult } from '../router/index.js';
import { proposeTasks } from './plan-chief.js';
import { PlanConflict } from './plan-conflict.js';
import { checkDependencies } from './plan-order.js';
import type { Plan } from './plan-schema.js';
import { planFile, readPlan, writePlan } from './plan-store.js';

/** The router of a project's tasks: its `recipes/router.yaml` over its recipes. */
export function planRouter(project: RecipeProject): (description: string) => RouteResult {
  const router = loadRouter(join(project.recipesDir, 'router.yaml'), { recipes: listRecipes(project) });
  return (description) => routeTask(description, router);
}

/** What {@link proposePlan} needs. */
export interface ProposePlanOptions {
  project: RecipeProject;
  /** The chief's model (the simulation for a simulated plan). */
  backend: CodergenBackend;
  signal: AbortSignal;
  /** `plan.json` (default `<project>/.orchestra/plan.json`). */
  file?: string;
}

/**
 * The first half of `orchestra plan "<intent>"`, for a front end that
 * approves the plan its own way: the chief decomposes the intent (one model
 * call), each task is routed (an unroutable one, or one the chief asked a
 * scoping question about, needs scoping), and the plan is saved as
 * `proposed`. It replaces an ended plan, or one still proposed (nothing of
 * it ran); one that is running or paused is not replaced ({@link PlanConflict}).
 */
export async function proposePlan(intent: string, options: ProposePlanOptions): Promise<Plan> {
  const file = options.file ?? planFile(options.project.dir);
  const existing = readPlan(file);
  if (existing && (existing.state === 'running' || existing.state === 'paused')) {
    throw new PlanConflict(`${file} holds a plan that has not ended (${existing.state}: ${existing.intent}); go on with it (orchestra plan --resume, or Resume on the web page), or move the file away to start another`);
  }
  const route = planRouter(options.project);
  const proposed = await proposeTasks(options.backend, intent, options.signal);
  checkDependencies(proposed);
  const now = new Date().toISOString();
  const plan: Plan = {
    format: 'orchestra.plan/1',
    intent,
    project: options.project.dir,
    created_at: now,
    updated_at: now,
    state: 'proposed',
    tasks: proposed.map((t) => {
      const routed = route(t.description);
      return { ...t, state: t.scoping_question || !routed.routable ? 'needs_scoping' : 'pending', recipe_id: routed.recipe_id, initial_args: routed.initial_args, run_id: null, findings: null, forced: false };
    }),
  };
  writePlan(file, plan);
  return plan;
}
