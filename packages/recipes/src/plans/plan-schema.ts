import { z } from 'zod';

/** Where a task stands. */
export const TASK_STATES = ['pending', 'blocked', 'needs_scoping', 'running', 'done', 'failed', 'removed'] as const;
/** One of {@link TASK_STATES}. */
export type TaskState = (typeof TASK_STATES)[number];

/** Where a plan stands: proposed (waiting for approval), approved and running, paused, or ended. */
export const PLAN_STATES = ['proposed', 'running', 'paused', 'done', 'failed'] as const;
/** One of {@link PLAN_STATES}. */
export type PlanState = (typeof PLAN_STATES)[number];

const taskId = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]*$/, { error: 'task ids use letters, digits, _ and -' });

/** A task as the chief proposes it (its structured output, checked; keys a model adds besides are dropped). */
export const ProposedTaskSchema = z.object({
  id: taskId,
  description: z.string().min(1, { error: 'a task needs a description' }),
  type: z.string().optional(),
  deps: z.array(taskId).default([]),
  dod: z.array(z.string()).default([]),
  scoping_question: z.string().nullish(),
});

/** The chief's decomposition of an intent. */
export const ProposalSchema = z.object({ tasks: z.array(ProposedTaskSchema) });

/** A task of a plan, with its route and its run. */
export const PlanTaskSchema = ProposedTaskSchema.extend({
  state: z.enum(TASK_STATES),
  recipe_id: z.string().nullable(),
  initial_args: z.record(z.string(), z.string()).default({}),
  /** The person's answer to the scoping question. */
  answer: z.string().nullish(),
  run_id: z.string().nullable().default(null),
  findings: z.number().int().min(0).nullable().default(null),
  failure_reason: z.string().nullish(),
  /** Started by the person although a dependency had not finished. */
  forced: z.boolean().default(false),
  /** Proposed by the chief after a task's findings (and approved). */
  follow_up_of: z.string().nullish(),
});

/** `plan.json`. */
export const PlanFileSchema = z.strictObject({
  format: z.literal('orchestra.plan/1'),
  intent: z.string(),
  project: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  state: z.enum(PLAN_STATES),
  tasks: z.array(PlanTaskSchema),
});

/** A proposed task. */
export type ProposedTask = z.output<typeof ProposedTaskSchema>;
/** A task of a plan. */
export type PlanTask = z.output<typeof PlanTaskSchema>;
/** A session plan (`plan.json`). */
export type Plan = z.output<typeof PlanFileSchema>;
