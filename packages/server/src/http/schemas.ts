import { z } from 'zod';

/** Largest request body accepted by default (a DOT source with its context): 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

const JsonValueSchema: z.ZodType<unknown> = z.lazy(() => z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(JsonValueSchema), z.record(z.string(), JsonValueSchema)]));

/** `POST /pipelines`: the DOT source and how to run it. */
export const StartRunBodySchema = z.strictObject({
  /** The pipeline's DOT text. */
  source: z.string().min(1, 'source is empty: send the pipeline\'s DOT text'),
  /** A file name for diagnostics (`name:line:col`); default `pipeline.dot`. */
  file: z.string().max(200).optional(),
  /** Initial context values. */
  context: z.record(z.string(), JsonValueSchema).optional(),
  simulate: z.boolean().optional(),
  model: z.string().min(1).max(200).optional(),
  interactive: z.boolean().optional(),
});

/** `POST /validate`: DOT text to check. */
export const ValidateBodySchema = z.strictObject({
  source: z.string(),
  file: z.string().max(200).optional(),
});

/** `POST /pipelines/{id}/questions/{qid}/answer`. */
export const AnswerBodySchema = z.strictObject({
  /** An option key or label, yes/no, free text, or a conversation command (`/done`, `/approve`, `/reject`). */
  answer: z.string().max(100_000),
});

/** A run id or question id in a path. */
export const PathIdSchema = z.string().min(1).max(200).regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/, 'ids hold letters, digits, _, . and -');

/** `Last-Event-ID` (or `?after=`): the id of the last event a client has. */
export const LastEventIdSchema = z.coerce.number().int().min(0);

/** `POST /plan`: what the person wants; the chief proposes a plan for it. */
export const ProposePlanBodySchema = z.strictObject({
  intent: z.string().trim().min(1, 'intent is empty: say what you want done').max(10_000),
  /** The chief and the task runs call no model: simulated responses. */
  simulate: z.boolean().optional(),
});

/** `PATCH /plan/tasks/{id}`: the task's new description. */
export const EditTaskBodySchema = z.strictObject({
  description: z.string().trim().min(1, 'description is empty').max(10_000),
});

/** `POST /plan/tasks/{id}/move`: where the task goes (1 is first). */
export const MoveTaskBodySchema = z.strictObject({
  position: z.number().int().min(1).max(100_000),
});

/** `POST /plan/start` and `POST /plan/resume` (the body may be empty): whether the task runs are simulated (default: as the plan was proposed, or its runs were). */
export const RunPlanBodySchema = z.strictObject({
  simulate: z.boolean().optional(),
});

/** A task id in a path. */
export const TaskIdSchema = z.string().min(1).max(200).regex(/^[A-Za-z][A-Za-z0-9_-]*$/, 'task ids hold letters, digits, _ and -, and start with a letter');
