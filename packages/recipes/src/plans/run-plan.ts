import type { CodergenBackend, Interviewer, RunResult } from '@orchestra/core';
import type { RouteResult } from '../router/index.js';
import { PLAN_STAGE } from './approve-plan.js';
import { proposeFollowUps } from './plan-chief.js';
import { checkDependencies, nextTask, updateBlocked } from './plan-order.js';
import type { Plan, PlanTask } from './plan-schema.js';

/** How one task's run ended. */
export interface TaskRunResult {
  runId: string;
  status: RunResult['status'];
  failureReason?: string;
  /** Its Definition of Done's findings (failed checks). */
  findings: unknown[];
}

/** Runs the recipe of a task: a new run, or the one it was running when the plan stopped. */
export type TaskRunner = (task: PlanTask, options: { resumeRunId: string | null; started: (runId: string) => void; signal: AbortSignal }) => Promise<TaskRunResult>;

/** What running a plan needs. */
export interface RunPlanOptions {
  /** Saves the plan (atomically) after every change. */
  save(plan: Plan): void;
  interviewer: Interviewer;
  /** The chief's model (follow-up proposals). */
  backend: CodergenBackend;
  route(description: string): RouteResult;
  runTask: TaskRunner;
  /** Stops the plan at the next task boundary (the running task stops at its next safe point). */
  signal: AbortSignal;
  /** Tasks to start although a dependency has not finished. */
  force?: readonly string[];
}

/** The question for a task no recipe takes: the chief's scoping question, or a general one. */
function scopingQuestion(task: PlanTask): string {
  return task.scoping_question ?? `No recipe takes "${task.description}". Say more precisely what to do (for example "check scene 2 for continuity errors"):`;
}

/** Routes a task that has no recipe yet: `needs_scoping` when no rule (or an unanswered scoping question) stops it. */
function route(task: PlanTask, options: RunPlanOptions): void {
  if (task.state !== 'pending' && task.state !== 'needs_scoping' && task.state !== 'blocked') return;
  if (task.scoping_question && !task.answer) {
    task.state = 'needs_scoping';
    return;
  }
  if (task.recipe_id) return;
  const routed = options.route(task.answer ? `${task.description} ${task.answer}` : task.description);
  task.recipe_id = routed.recipe_id;
  task.initial_args = routed.initial_args;
  task.state = routed.routable ? (task.state === 'needs_scoping' ? 'pending' : task.state) : 'needs_scoping';
}

/**
 * Runs an approved plan task by task, in dependency order, each task's
 * recipe as a run of its own: routes every task (unroutable ones need
 * scoping: their question is asked, and the answer routes them again),
 * blocks what depends on a failed task, runs the next ready one, records its
 * run, state and findings, lets the chief propose follow-ups (each added
 * only if the person says yes), and saves the plan after every change. A
 * stop (the signal, or a parked task run) pauses the plan at the task
 * boundary; run it again to go on: a task that was running is resumed, not
 * started again.
 */
export async function runPlan(plan: Plan, options: RunPlanOptions): Promise<Plan> {
  checkDependencies(plan.tasks.filter((t) => t.state !== 'removed'));
  for (const id of options.force ?? []) {
    const task = plan.tasks.find((t) => t.id === id);
    if (task && (task.state === 'blocked' || task.state === 'pending')) task.forced = true;
  }
  plan.state = 'running';
  options.save(plan);
  for (;;) {
    if (options.signal.aborted) return pause(plan, options);
    for (const task of plan.tasks) route(task, options);
    updateBlocked(plan);
    options.save(plan);
    let task = plan.tasks.find((t) => t.state === 'running') ?? nextTask(plan);
    if (!task) {
      // Nothing can run: ask the scoping questions (an answer may make a task runnable), once each.
      const waiting = plan.tasks.filter((t) => t.state === 'needs_scoping' && !t.answer);
      if (waiting.length === 0) break;
      for (const w of waiting) {
        const answer = await options.interviewer.ask({ text: `Task ${w.id}: ${scopingQuestion(w)}`, type: 'FREEFORM', options: [], stage: PLAN_STAGE, metadata: { task: w.id } });
        const text = (answer.text ?? '').trim();
        w.answer = text && answer.value !== 'SKIPPED' && answer.value !== 'TIMEOUT' ? text : '(no answer)';
        w.recipe_id = null;
        options.save(plan);
      }
      continue;
    }
    task.state = 'running';
    options.save(plan);
    const running = task;
    const result = await options.runTask(running, {
      resumeRunId: running.run_id,
      started: (runId) => {
        running.run_id = runId;
        options.save(plan);
      },
      signal: options.signal,
    });
    running.run_id = result.runId;
    if (result.status === 'interrupted' || result.status === 'parked') return pause(plan, options);
    running.state = result.status === 'success' ? 'done' : 'failed';
    running.findings = result.findings.length;
    if (result.failureReason) running.failure_reason = result.failureReason;
    options.save(plan);
    for (const follow of await proposeFollowUps(options.backend, running, result.findings, options.signal)) {
      const id = plan.tasks.some((t) => t.id === follow.id) ? `${running.id}-${follow.id}` : follow.id;
      const yes = await options.interviewer.ask({ text: `The chief proposes a follow-up to ${running.id}: ${follow.description}. Add it to the plan?`, type: 'YES_NO', options: [], stage: PLAN_STAGE, metadata: { task: id } });
      if (yes.value !== 'YES') continue;
      // After the task it follows (it runs later in the plan), not blocked by it: it is there to fix what the task found.
      const known = new Set(plan.tasks.map((t) => t.id));
      plan.tasks.push({ ...follow, id, deps: follow.deps.filter((d) => known.has(d) && d !== running.id), state: 'pending', recipe_id: null, initial_args: {}, run_id: null, findings: null, forced: false, follow_up_of: running.id });
      options.save(plan);
    }
    task = undefined;
  }
  const live = plan.tasks.filter((t) => t.state !== 'removed');
  plan.state = live.every((t) => t.state === 'done') ? 'done' : 'failed';
  options.save(plan);
  return plan;
}

function pause(plan: Plan, options: RunPlanOptions): Plan {
  plan.state = 'paused';
  options.save(plan);
  return plan;
}
