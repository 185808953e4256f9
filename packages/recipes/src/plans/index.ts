/** Session plans: the chief's tasks, routed, approved by the person, run recipe by recipe. */
export { PLAN_STATES, PlanFileSchema, PlanTaskSchema, ProposalSchema, ProposedTaskSchema, TASK_STATES, type Plan, type PlanState, type PlanTask, type ProposedTask, type TaskState } from './plan-schema.js';
export { planFile, readPlan, writePlan } from './plan-store.js';
export { checkDependencies, moveTask, nextTask, updateBlocked } from './plan-order.js';
export { PLANNER_SYSTEM, proposeFollowUps, proposeTasks } from './plan-chief.js';
export { PLAN_STAGE, approvePlan } from './approve-plan.js';
export { planText } from './plan-text.js';
export { runPlan, type RunPlanOptions, type TaskRunResult, type TaskRunner } from './run-plan.js';
export { resumePlan, startPlan, supervisedTaskRunner, type PlanSessionOptions } from './plan-session.js';
export { PlanConflict } from './plan-conflict.js';
export { editTask, removeTask, repositionTask } from './plan-edits.js';
export { planRouter, proposePlan, type ProposePlanOptions } from './propose-plan.js';
export { supervisorTaskRunner, type SupervisorTaskRunnerOptions } from './supervisor-task-runner.js';
export { HeldPlan, type HeldPlanOptions, type HeldPlanQuestion, type HeldPlanView } from './held-plan.js';
