import { join } from 'node:path';
import { FileRunCatalogue, RunSupervisor, type CodergenBackend, type Interviewer, type RunEvent } from '@orchestra/core';
import { createRecipeHandlers, RECIPE_HANDLER_TYPES } from '../handlers/recipe-handlers.js';
import { RecipeError } from '../recipe-error.js';
import type { RecipeProject } from '../recipe-project.js';
import type { RecipeTool } from '../tool-types.js';
import { approvePlan } from './approve-plan.js';
import type { Plan } from './plan-schema.js';
import { planFile, readPlan, writePlan } from './plan-store.js';
import { planRouter, proposePlan } from './propose-plan.js';
import { runPlan, type TaskRunner } from './run-plan.js';
import { supervisorTaskRunner } from './supervisor-task-runner.js';

/** What a session plan runs with. */
export interface PlanSessionOptions {
  project: RecipeProject;
  /** The chief's and the agents' model (the simulation for a simulated plan). */
  backend: CodergenBackend;
  tools: readonly RecipeTool[];
  /** Who approves the plan, answers scoping questions and follow-ups, and the recipes' gates. */
  interviewer: Interviewer;
  /** Pauses the plan at the next task boundary. */
  signal: AbortSignal;
  /** `plan.json` (default `<project>/.orchestra/plan.json`). */
  file?: string;
  /** Told about every event of the task runs, with the task's id. */
  onEvent?: (taskId: string, event: RunEvent) => void;
}

/**
 * The runner of a plan's tasks in this process: each task's recipe a run of
 * the project's runs (`.orchestra/runs`), through a run supervisor of its
 * own equipped with the recipe handlers, its questions asked through the
 * session's interviewer.
 */
export function supervisedTaskRunner(options: PlanSessionOptions): TaskRunner {
  const handlers = createRecipeHandlers({ backend: options.backend, tools: options.tools });
  const supervisor = new RunSupervisor({
    catalogue: new FileRunCatalogue(join(options.project.dir, '.orchestra', 'runs')),
    setup: async () => ({ backend: options.backend, handlers }),
    handlerTypes: RECIPE_HANDLER_TYPES,
    workdir: options.project.dir,
  });
  return supervisorTaskRunner(supervisor, { project: options.project, tools: options.tools, questions: options.interviewer, ...(options.onEvent ? { onEvent: options.onEvent } : {}) });
}

/**
 * `orchestra plan "<intent>"`: the chief decomposes the intent into tasks
 * (one model call), each is routed to a recipe (unroutable ones need
 * scoping), the plan is saved, shown for approval (edit, remove, move), and
 * run task by task. A plan that is running or paused is not replaced (one
 * still proposed, or ended, is).
 */
export async function startPlan(intent: string, options: PlanSessionOptions): Promise<Plan> {
  const file = options.file ?? planFile(options.project.dir);
  const plan = await proposePlan(intent, { project: options.project, backend: options.backend, signal: options.signal, file });
  return approveAndRun(plan, { ...options, file });
}

async function approveAndRun(plan: Plan, options: PlanSessionOptions & { file: string; force?: readonly string[] }): Promise<Plan> {
  const save = (p: Plan) => writePlan(options.file, p);
  if (plan.state === 'proposed' && !(await approvePlan(plan, options.interviewer, save))) {
    plan.state = 'failed';
    save(plan);
    return plan;
  }
  return runPlan(plan, { save, interviewer: options.interviewer, backend: options.backend, route: planRouter(options.project), runTask: supervisedTaskRunner(options), signal: options.signal, ...(options.force ? { force: options.force } : {}) });
}

/** `orchestra plan --resume`: goes on with the project's plan where it stopped (a running task's run is resumed); `force` starts blocked tasks. */
export async function resumePlan(options: PlanSessionOptions & { force?: readonly string[] }): Promise<Plan> {
  const file = options.file ?? planFile(options.project.dir);
  const plan = readPlan(file);
  if (!plan) throw new RecipeError('ORCH_PLAN', `there is no plan in ${file}; start one with orchestra plan "<what you want>"`);
  if ((plan.state === 'done' || plan.state === 'failed') && !options.force?.length) return plan;
  return approveAndRun(plan, { ...options, file });
}
