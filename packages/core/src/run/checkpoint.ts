import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { OrchestraError } from '../errors.js';
import { STAGE_STATUSES, type JsonValue } from '../engine/outcome.js';
import { TokenUsageFileSchema } from '../engine/usage.js';
import { RUN_FILES, writeFileAtomic } from './run-files.js';

/** Where a run stands, as `checkpoint.json` records it. */
export const RUN_STATUSES = ['running', 'completed', 'failed', 'interrupted', 'restarted', 'parked'] as const;

/** Where a run stands. */
export type RunStatus = (typeof RUN_STATUSES)[number];

const jsonRecord = z.record(z.string(), z.unknown()) as unknown as z.ZodType<Record<string, JsonValue>>;

/**
 * `checkpoint.json` (spec §5.3 plus what resume needs). During a run it is
 * refreshed at most every {@link CHECKPOINT_INTERVAL_MS} and at every stop;
 * `journal.jsonl` holds every node completed since (`journal_seq`).
 */
export const CheckpointSchema = z.object({
  format: z.literal('orchestra.checkpoint/1'),
  timestamp: z.string(),
  status: z.enum(RUN_STATUSES),
  current_node: z.string().nullable(),
  next_node: z.string().nullable(),
  completed_nodes: z.array(z.string()),
  node_retries: z.record(z.string(), z.number().int().nonnegative()),
  node_outcomes: z.record(z.string(), z.enum(STAGE_STATUSES)),
  total_retries: z.number().int().nonnegative(),
  context: jsonRecord,
  logs: z.array(z.string()),
  journal_seq: z.number().int().nonnegative(),
  failure_reason: z.string().nullable(),
  /** For a run ended by a `loop_restart` edge: the run directory that continues it. */
  restarted_to: z.string().nullable(),
  /** Progress of nodes that were running (an interactive node's conversation so far), by node id. */
  node_progress: jsonRecord.default({}),
  /** Tokens the run's LLM stages used up to `journal_seq` (absent before any reported usage). */
  token_usage: TokenUsageFileSchema.optional(),
});

/** The checkpoint as read (`node_progress` is optional in older files). */
export type Checkpoint = z.infer<typeof CheckpointSchema>;

/** Longest the checkpoint file may lag the journal while a run is going. */
export const CHECKPOINT_INTERVAL_MS = 500;

/** Thrown when a run directory's state cannot be used. Code `ORCH_CHECKPOINT`. */
export class CheckpointError extends OrchestraError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ORCH_CHECKPOINT', message, options);
    this.name = 'CheckpointError';
  }
}

/** Writes `checkpoint.json` atomically. */
export function writeCheckpoint(logsRoot: string, checkpoint: Checkpoint): void {
  writeFileAtomic(join(logsRoot, RUN_FILES.checkpoint), `${JSON.stringify(checkpoint)}\n`);
}

/**
 * Reads and checks `checkpoint.json`. A missing, unreadable, truncated or
 * foreign file is refused with a {@link CheckpointError} that says which; the
 * file is never modified here.
 */
export function readCheckpoint(logsRoot: string): Checkpoint {
  const path = join(logsRoot, RUN_FILES.checkpoint);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (error as Error).message;
    throw new CheckpointError(`cannot read ${path}: ${reason} (is ${logsRoot} an orchestra run directory?)`, { cause: error });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CheckpointError(`${path} is corrupt or truncated (not valid JSON); it was left untouched`, { cause: error });
  }
  const parsed = CheckpointSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new CheckpointError(`${path} is not an orchestra checkpoint${where}: ${issue?.message ?? 'unexpected shape'}; it was left untouched`);
  }
  return parsed.data;
}
