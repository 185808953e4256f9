import { RecipeError } from '../recipe-error.js';
import type { RouteResult } from '../router/index.js';
import { PlanConflict } from './plan-conflict.js';
import { moveTask } from './plan-order.js';
import type { Plan, PlanTask } from './plan-schema.js';

/** The task `id` of a plan still proposed (edits come before it starts): {@link PlanConflict} otherwise, `ORCH_PLAN` for an unknown id. */
function proposedTask(plan: Plan, id: string, what: string): PlanTask {
  const task = plan.tasks.find((t) => t.id === id);
  if (!task) throw new RecipeError('ORCH_PLAN', `no task ${id}`);
  if (plan.state !== 'proposed') throw new PlanConflict(`the plan is ${plan.state}: tasks are ${what} before it starts`);
  if (task.state === 'removed') throw new PlanConflict(`task ${id} was removed`);
  return task;
}

/**
 * Gives a task of a proposed plan a new description. Its route is dropped
 * (it is routed again before it runs) or, given `route`, found again now:
 * a task no rule takes needs scoping, one the chief asked a question about
 * keeps waiting for the answer.
 */
export function editTask(plan: Plan, id: string, description: string, route?: (description: string) => RouteResult): PlanTask {
  const task = proposedTask(plan, id, 'edited');
  const text = description.trim();
  if (!text) throw new RecipeError('ORCH_PLAN', 'a task needs a description');
  task.description = text;
  task.recipe_id = null;
  task.initial_args = {};
  if (route) {
    const routed = route(task.answer ? `${text} ${task.answer}` : text);
    task.recipe_id = routed.recipe_id;
    task.initial_args = routed.initial_args;
    task.state = (task.scoping_question && !task.answer) || !routed.routable ? 'needs_scoping' : 'pending';
  }
  return task;
}

/**
 * Removes a task of a proposed plan (its state becomes `removed`). A task
 * another one (not removed) depends on is refused ({@link PlanConflict}):
 * a plan whose tasks depend on a removed one does not run.
 */
export function removeTask(plan: Plan, id: string): PlanTask {
  const task = proposedTask(plan, id, 'removed');
  const dependants = plan.tasks.filter((t) => t.state !== 'removed' && t.deps.includes(id)).map((t) => t.id);
  if (dependants.length) throw new PlanConflict(`task ${id} cannot be removed: ${dependants.join(', ')} depend${dependants.length === 1 ? 's' : ''} on it (remove ${dependants.length === 1 ? 'that' : 'those'} first)`);
  task.state = 'removed';
  return task;
}

/**
 * Moves a task of a proposed plan to a position (1-based) with
 * {@link moveTask}; a move before a dependency or after a dependant is a
 * {@link PlanConflict} with its message (the order is left as it was).
 */
export function repositionTask(plan: Plan, id: string, position: number): void {
  proposedTask(plan, id, 'moved');
  try {
    moveTask(plan, id, position);
  } catch (error) {
    if (error instanceof RecipeError) throw new PlanConflict(error.message, { cause: error });
    throw error;
  }
}
