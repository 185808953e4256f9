import { isOrchestraError, type QuestionPolicy, type RecordedRunOptions, type RunEvent, type RunSupervisor, type SupervisedRun } from '@orchestra/core';
import { FINDINGS_FILE } from '../handlers/dod-handler.js';
import { compiledRecipeFile, prepareRecipe } from '../prepare-recipe.js';
import { RecipeError } from '../recipe-error.js';
import type { RecipeProject } from '../recipe-project.js';
import type { RecipeTool } from '../tool-types.js';
import type { PlanTask } from './plan-schema.js';
import type { TaskRunner } from './run-plan.js';

/** What {@link supervisorTaskRunner} needs besides the supervisor. */
export interface SupervisorTaskRunnerOptions {
  project: RecipeProject;
  tools: readonly RecipeTool[];
  /** Recorded in each new task run (`{ simulate: true }` for a simulated plan), so a resume of it runs the same way. */
  runOptions?: RecordedRunOptions;
  /** Told about every event of the task runs, with the task's id. */
  onEvent?: (taskId: string, event: RunEvent) => void;
  /** Who answers the task runs' questions (default `hold`: they wait for `supervisor.answer`). */
  questions?: QuestionPolicy;
}

/** The task a run is for: its description, with the person's scoping answer. */
export function taskText(task: PlanTask): string {
  return task.answer && task.answer !== '(no answer)' ? `${task.description} (${task.answer})` : task.description;
}

/**
 * The runner of a plan's tasks through a supervisor the caller owns (a
 * server's): each task's recipe a run of its catalogue, whose questions the
 * supervisor holds (`questions: 'hold'`: answered with
 * `supervisor.answer`), stopped by the plan's signal at its next safe point.
 * The supervisor's setup must equip recipe runs (their handlers and
 * backend) and its `handlerTypes` name the recipe node types.
 */
export function supervisorTaskRunner(supervisor: RunSupervisor, options: SupervisorTaskRunnerOptions): TaskRunner {
  return async (task, { resumeRunId, started, signal }) => {
    const attach = { questions: options.questions ?? ('hold' as const), signal, ...(options.onEvent ? { onEvent: (e: RunEvent) => options.onEvent?.(task.id, e) } : {}) };
    let run: SupervisedRun;
    try {
      if (resumeRunId) run = await supervisor.resume(resumeRunId, { ...attach, ended: 'report' });
      else {
        if (!task.recipe_id) throw new RecipeError('ORCH_PLAN', `task ${task.id} has no recipe`);
        const prepared = prepareRecipe(options.project, task.recipe_id, taskText(task), options.tools);
        run = await supervisor.start(
          {
            source: prepared.compiled.dot,
            graph: prepared.graph,
            file: prepared.file,
            sourceFile: compiledRecipeFile(options.project, task.recipe_id),
            context: { ...task.initial_args, task: taskText(task) },
            options: options.runOptions ?? {},
          },
          attach,
        );
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
