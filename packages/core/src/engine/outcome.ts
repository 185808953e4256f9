import { z } from 'zod';
import { TokenUsageFileSchema, TokenUsageSchema, usageFromFile, usageToFile, type TokenUsage } from './usage.js';

/** The status file's name in a stage (spec Appendix C). */
export const STATUS_FILE = 'status.json';

/** The notes of the SUCCESS `auto_status=true` stands in for a status nobody wrote (spec Appendix C). */
export const AUTO_STATUS_NOTES = 'auto-status: handler completed without writing status';

/** Outcome statuses, lower-case as in status files and conditions (spec §5.2). */
export const STAGE_STATUSES = ['success', 'partial_success', 'retry', 'fail', 'skipped'] as const;

/** The status of a stage's outcome. */
export type StageStatus = (typeof STAGE_STATUSES)[number];

/** A JSON value: what the context and status files may hold. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The result of running a node's handler (spec §5.2). */
export interface Outcome {
  status: StageStatus;
  /** Edge label to prefer when choosing the next edge. */
  preferredLabel?: string;
  /** Node ids to prefer when no label matches. */
  suggestedNextIds?: string[];
  /** Values merged into the run context after the node. */
  contextUpdates?: Record<string, JsonValue>;
  /** Human-readable summary. */
  notes?: string;
  /** Why the stage failed or asked for a retry. */
  failureReason?: string;
  /**
   * A node to continue at regardless of edges: how the parallel handler
   * continues at its fan-in node. An orchestra extension; not in status files.
   */
  nextNode?: string;
  /**
   * `false`: retrying cannot change this FAIL or RETRY (a human rejected the
   * work, or there is no human to answer), so the engine does not retry it
   * even with `max_retries` and routes the failure at once. An orchestra
   * extension; not in status files.
   */
  retryable?: boolean;
  /**
   * Tokens the node's LLM calls used (all attempts, once the engine has
   * summed them). Recorded in `status.json` as `usage`, an orchestra extension.
   */
  usage?: TokenUsage;
  /**
   * Model calls and tokens per phase of a phased LLM stage (`discuss`,
   * `summarize`, `serialize`). Recorded in `status.json` as `phases`, an
   * orchestra extension.
   */
  phases?: Record<string, PhaseCost>;
}

/** The model calls of one phase of a stage, and the tokens they used. */
export interface PhaseCost {
  calls: number;
  usage?: TokenUsage;
}

/** True for `success` and `partial_success`. */
export function isSuccess(status: StageStatus): boolean {
  return status === 'success' || status === 'partial_success';
}

const jsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]),
);

/** `<node>/status.json` (spec Appendix C), snake_case on disk. */
export const StatusFileSchema = z.object({
  outcome: z.enum(STAGE_STATUSES),
  preferred_label: z.string().optional(),
  suggested_next_ids: z.array(z.string()).optional(),
  context_updates: z.record(z.string(), jsonValue).optional(),
  notes: z.string().optional(),
  failure_reason: z.string().optional(),
  /** Tokens the node's LLM calls used (orchestra extension). */
  usage: TokenUsageFileSchema.optional(),
  /** Calls and tokens per phase of a phased LLM stage (orchestra extension). */
  phases: z.record(z.string(), z.object({ calls: z.number().int().min(0), usage: TokenUsageFileSchema.optional() })).optional(),
});

/** The on-disk form of a status file. */
export type StatusFile = z.infer<typeof StatusFileSchema>;

/** An outcome as the status file records it. */
export function toStatusFile(outcome: Outcome): StatusFile {
  return {
    outcome: outcome.status,
    preferred_label: outcome.preferredLabel ?? '',
    suggested_next_ids: outcome.suggestedNextIds ?? [],
    context_updates: outcome.contextUpdates ?? {},
    notes: outcome.notes ?? '',
    ...(outcome.failureReason ? { failure_reason: outcome.failureReason } : {}),
    ...(outcome.usage ? { usage: usageToFile(outcome.usage) } : {}),
    ...(outcome.phases ? { phases: Object.fromEntries(Object.entries(outcome.phases).map(([name, p]) => [name, { calls: p.calls, ...(p.usage ? { usage: usageToFile(p.usage) } : {}) }])) } : {}),
  };
}

/** An outcome read back from a status file (for example one an external agent wrote). */
export function fromStatusFile(file: StatusFile): Outcome {
  const outcome: Outcome = { status: file.outcome };
  if (file.preferred_label) outcome.preferredLabel = file.preferred_label;
  if (file.suggested_next_ids?.length) outcome.suggestedNextIds = file.suggested_next_ids;
  if (file.context_updates && Object.keys(file.context_updates).length) outcome.contextUpdates = file.context_updates;
  if (file.notes) outcome.notes = file.notes;
  if (file.failure_reason) outcome.failureReason = file.failure_reason;
  if (file.usage) outcome.usage = usageFromFile(file.usage);
  if (file.phases) outcome.phases = Object.fromEntries(Object.entries(file.phases).map(([name, p]) => [name, { calls: p.calls, ...(p.usage ? { usage: usageFromFile(p.usage) } : {}) }]));
  return outcome;
}

/** Most zod issues named in a `status.json is invalid` message. */
const STATUS_ISSUES_SHOWN = 3;

/** What {@link parseStatusFile} made of a status file: its outcome, or why it is not one. */
export type ParsedStatusFile = { ok: true; outcome: Outcome } | { ok: false; failureReason: string };

/**
 * A status file another program wrote (spec Appendix C), checked with
 * {@link StatusFileSchema}: its outcome, or a failure reason —
 * `status.json is not valid JSON: <parser message>` or
 * `status.json is invalid: <field>: <zod message>` (at most three issues,
 * separated by `; `). A leading byte-order mark is ignored; unknown fields are
 * dropped.
 */
export function parseStatusFile(text: string): ParsedStatusFile {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    return { ok: false, failureReason: `${STATUS_FILE} is not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const parsed = StatusFileSchema.safeParse(json);
  if (parsed.success) return { ok: true, outcome: fromStatusFile(parsed.data) };
  const { issues } = parsed.error;
  const shown = issues.slice(0, STATUS_ISSUES_SHOWN).map((issue) => (issue.path.length ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message));
  const more = issues.length > STATUS_ISSUES_SHOWN ? ` (and ${issues.length - STATUS_ISSUES_SHOWN} more)` : '';
  return { ok: false, failureReason: `${STATUS_FILE} is invalid: ${shown.join('; ') || 'unexpected shape'}${more}` };
}

/** Checks a handler's return value; a malformed outcome becomes a FAIL naming the problem. */
export const OutcomeSchema: z.ZodType<Outcome> = z.object({
  status: z.enum(STAGE_STATUSES),
  preferredLabel: z.string().optional(),
  suggestedNextIds: z.array(z.string()).optional(),
  contextUpdates: z.record(z.string(), jsonValue).optional(),
  notes: z.string().optional(),
  failureReason: z.string().optional(),
  nextNode: z.string().optional(),
  retryable: z.boolean().optional(),
  usage: TokenUsageSchema.optional(),
  phases: z.record(z.string(), z.object({ calls: z.number().int().min(0), usage: TokenUsageSchema.optional() })).optional(),
});
