import { join } from 'node:path';
import { FileRunCatalogue, RunSupervisor, isOrchestraError, type CodergenBackend, type Interviewer, type RunEvent } from '@orchestra/core';
import { createRecipeHandlers, RECIPE_HANDLER_TYPES } from '../handlers/recipe-handlers.js';
import { FINDINGS_FILE } from '../handlers/dod-handler.js';
import { compiledRecipeFile, prepareRecipe } from '../prepare-recipe.js';
import { RecipeError } from '../recipe-error.js';
import type { RecipeProject } from '../recipe-project.js';
import { listRecipes } from '../recipe-project.js';
import { loadRouter, routeTask } from '../router/index.js';
import type { RecipeTool } from '../tool-types.js';
import { approvePlan } from './approve-plan.js';
import { proposeTasks } from './plan-chief.js';
import { checkDependencies } from './plan-order.js';
import type { Plan, PlanTask } from './plan-schema.js';
import { planFile, readPlan, writePlan } from './plan-store.js';
import { runPlan, type TaskRunner } from './run-plan.js';

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

function taskText(task: PlanTask): string {
  return task.answer && task.answer !== '(no answer)' ? `${task.description} (${task.answer})` : task.description;
}

/** The runner of a plan's tasks: each task's recipe a run of the project's runs (`.orchestra/runs`), through a run supervisor. */
export function supervisedTaskRunner(options: PlanSessionOptions): TaskRunner {
  const handlers = createRecipeHandlers({ backend: options.backend, tools: options.tools });
  const supervisor = new RunSupervisor({
    catalogue: new FileRunCatalogue(join(options.project.dir, '.orchestra', 'runs')),
    setup: async () => ({ backend: options.backend, handlers }),
    handlerTypes: RECIPE_HANDLER_TYPES,
    workdir: options.project.dir,
  });
  return async (task, { resumeRunId, started, signal }) => {
    const attach = { questions: options.interviewer, signal, ...(options.onEvent ? { onEvent: (e: RunEvent) => options.onEvent?.(task.id, e) } : {}) };
    let run;
    try {
      if (resumeRunId) run = await supervisor.resume(resumeRunId, { ...attach, ended: 'report' });
      else {
        if (!task.recipe_id) throw new RecipeError('ORCH_PLAN', `task ${task.id} has no recipe`);
        const prepared = prepareRecipe(options.project, task.recipe_id, taskText(task), options.tools);
        run = await supervisor.start({ source: prepared.compiled.dot, graph: prepared.graph, file: prepared.file, sourceFile: compiledRecipeFile(options.project, task.recipe_id), context: { task: taskText(task), ...task.initial_args } }, attach);
      }
    } catch (error) {
      if (!isOrchestraError(error)) throw error;
      return { runId: resumeRunId ?? '', status: 'fail', failureReason: error.message, findings: [] };
    }
    started(run.id);
    const result = await run.done;
    const text = result.context['recipe.state'] !== undefined ? await (await run.store.stage('dod')).read(FINDINGS_FILE) : undefined;
    const findings = (text ?? '').split('\n').filter(Boolean).map((line) => JSON.parse(line) as unknown);
    return { runId: run.id, status: result.status, ...(result.failureReason ? { failureReason: result.failureReason } : {}), findings };
  };
}

/** Routes a description with the project's `recipes/router.yaml`. */
function projectRouter(project: RecipeProject) {
  const router = loadRouter(join(project.recipesDir, 'router.yaml'), { recipes: listRecipes(project) });
  return (description: string) => routeTask(description, router);
}

/**
 * `orchestra plan "<intent>"`: the chief decomposes the intent into tasks
 * (one model call), each is routed to a recipe (unroutable ones need
 * scoping), the plan is saved, shown for approval (edit, remove, move), and
 * run task by task. Refuses to replace a plan that has not ended.
 */
export async function startPlan(intent: string, options: PlanSessionOptions): Promise<Plan> {
  const file = options.file ?? planFile(options.project.dir);
  const existing = readPlan(file);
  if (existing && (existing.state === 'running' || existing.state === 'paused' || existing.state === 'proposed')) {
    throw new RecipeError('ORCH_PLAN', `${file} holds a plan that has not ended (${existing.state}: ${existing.intent}); go on with orchestra plan --resume, or move it away to start another`);
  }
  const proposed = await proposeTasks(options.backend, intent, options.signal);
  checkDependencies(proposed);
  const route = projectRouter(options.project);
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
  return approveAndRun(plan, { ...options, file });
}

async function approveAndRun(plan: Plan, options: PlanSessionOptions & { file: string; force?: readonly string[] }): Promise<Plan> {
  const save = (p: Plan) => writePlan(options.file, p);
  if (plan.state === 'proposed' && !(await approvePlan(plan, options.interviewer, save))) {
    plan.state = 'failed';
    save(plan);
    return plan;
  }
  return runPlan(plan, { save, interviewer: options.interviewer, backend: options.backend, route: projectRouter(options.project), runTask: supervisedTaskRunner(options), signal: options.signal, ...(options.force ? { force: options.force } : {}) });
}

/** `orchestra plan --resume`: goes on with the project's plan where it stopped (a running task's run is resumed); `force` starts blocked tasks. */
export async function resumePlan(options: PlanSessionOptions & { force?: readonly string[] }): Promise<Plan> {
  const file = options.file ?? planFile(options.project.dir);
  const plan = readPlan(file);
  if (!plan) throw new RecipeError('ORCH_PLAN', `there is no plan in ${file}; start one with orchestra plan "<what you want>"`);
  if (plan.state === 'done' || plan.state === 'failed') {
    if (!options.force?.length) return plan;
  }
  return approveAndRun(plan, { ...options, file });
}
