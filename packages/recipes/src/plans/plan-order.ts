import { RecipeError } from '../recipe-error.js';
import type { Plan, PlanTask, ProposedTask } from './plan-schema.js';

/** Refuses tasks whose dependencies name no task, or run in a circle (`ORCH_PLAN`, naming the circle). */
export function checkDependencies(tasks: readonly Pick<ProposedTask, 'id' | 'deps'>[]): void {
  const ids = new Set(tasks.map((t) => t.id));
  if (ids.size !== tasks.length) throw new RecipeError('ORCH_PLAN', `two tasks have the same id (${tasks.map((t) => t.id).filter((id, i, all) => all.indexOf(id) !== i).join(', ')})`);
  for (const t of tasks) for (const d of t.deps) if (!ids.has(d)) throw new RecipeError('ORCH_PLAN', `task ${t.id} depends on ${d}, which is no task of the plan`);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (id: string, path: string[]): void => {
    if (state.get(id) === 'done') return;
    if (state.get(id) === 'visiting') throw new RecipeError('ORCH_PLAN', `the tasks' dependencies run in a circle: ${[...path.slice(path.indexOf(id)), id].join(' → ')}`);
    state.set(id, 'visiting');
    for (const d of byId.get(id)?.deps ?? []) visit(d, [...path, id]);
    state.set(id, 'done');
  };
  for (const t of tasks) visit(t.id, []);
}

const FINISHED = new Set(['done']);
const DEAD = new Set(['failed', 'removed', 'needs_scoping', 'blocked']);

/**
 * Sets `blocked` on pending tasks a dependency can no longer satisfy (it
 * failed, was removed, or waits for scoping), and back to `pending` when it
 * can again. Forced tasks are never blocked.
 */
export function updateBlocked(plan: Plan): void {
  const byId = new Map(plan.tasks.map((t) => [t.id, t]));
  for (const task of plan.tasks) {
    if (task.forced || (task.state !== 'pending' && task.state !== 'blocked')) continue;
    const stuck = task.deps.some((d) => DEAD.has(byId.get(d)?.state ?? 'removed'));
    task.state = stuck ? 'blocked' : 'pending';
  }
}

/** The next task to run: the first pending (or forced) task, in plan order, whose dependencies are done. */
export function nextTask(plan: Plan): PlanTask | undefined {
  const byId = new Map(plan.tasks.map((t) => [t.id, t]));
  return plan.tasks.find((t) => (t.state === 'pending' || (t.state === 'blocked' && t.forced)) && (t.forced || t.deps.every((d) => FINISHED.has(byId.get(d)?.state ?? ''))));
}

/** Moves a task to a position (1-based), refusing a move that puts it before a dependency or after a dependant. */
export function moveTask(plan: Plan, id: string, position: number): void {
  const from = plan.tasks.findIndex((t) => t.id === id);
  if (from < 0) throw new RecipeError('ORCH_PLAN', `no task ${id}`);
  const [task] = plan.tasks.splice(from, 1) as [PlanTask];
  const to = Math.max(0, Math.min(plan.tasks.length, position - 1));
  plan.tasks.splice(to, 0, task);
  const index = new Map(plan.tasks.map((t, i) => [t.id, i]));
  const bad = task.deps.find((d) => (index.get(d) ?? -1) > to) ?? plan.tasks.find((t) => t.deps.includes(id) && (index.get(t.id) ?? 0) < to)?.id;
  if (bad !== undefined) {
    plan.tasks.splice(to, 1);
    plan.tasks.splice(from, 0, task);
    throw new RecipeError('ORCH_PLAN', `task ${id} cannot go to position ${position}: it must come after what it depends on and before what depends on it (${bad})`);
  }
}
