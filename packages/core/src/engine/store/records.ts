import { z } from 'zod';
import { STAGE_STATUSES, type JsonValue } from '../outcome.js';
import { AnswerSchema, QuestionSchema } from '../question.js';
import { TokenUsageFileSchema } from '../usage.js';

/**
 * The records a {@link RunStore} keeps for a run. Their JSON form is the
 * on-disk contract of the file store (docs/run-directory.md) and what any
 * other store saves.
 */

const jsonRecord = z.record(z.string(), z.unknown()) as unknown as z.ZodType<Record<string, JsonValue>>;

/** Where a run stands, as the checkpoint records it. */
export const RUN_STATUSES = ['running', 'completed', 'failed', 'interrupted', 'restarted', 'parked'] as const;

/** Where a run stands. */
export type RunStatus = (typeof RUN_STATUSES)[number];

/** `manifest.json`: what ran, from where, when, with which orchestra, and how it was started. */
export const ManifestSchema = z.object({
  format: z.literal('orchestra.run/1'),
  run_id: z.string(),
  pipeline: z.string(),
  goal: z.string(),
  source_file: z.string().nullable(),
  started_at: z.string(),
  orchestra_version: z.string(),
  /** Where the run began (the start node, or a `loop_restart` target). */
  start_node: z.string(),
  /** The run this one was restarted from by `loop_restart`, if any. */
  restarted_from: z.string().nullable(),
  /**
   * SHA-256 (hex) of the pipeline source the run was started with (`pipeline.dot`):
   * a resume refuses a copy that no longer matches. Absent when the run keeps no source.
   */
  pipeline_sha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  /** Values given with `--set` / `initialContext`, for the record and for restarts. */
  initial_context: z.record(z.string(), z.unknown()),
  /** The directory tool commands run in (absent in runs made before it was recorded). */
  workdir: z.string().optional(),
  /**
   * Options that change how the run behaves (the CLI records `simulate`,
   * `interviewer`, `answers`, ...), so a resume continues it the same way.
   * The engine records them; it does not read them.
   */
  run_options: z.record(z.string(), z.unknown()).optional(),
});

/** The manifest as written. */
export type Manifest = z.infer<typeof ManifestSchema>;

/**
 * `checkpoint.json` (spec §5.3 plus what resume needs). During a run it is
 * refreshed at most every {@link CHECKPOINT_INTERVAL_MS} and at every stop;
 * the journal holds every node completed since (`journal_seq`).
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
  /** For a run ended by a `loop_restart` edge: the run that continues it. */
  restarted_to: z.string().nullable(),
  /** Progress of nodes that were running (an interactive node's conversation so far), by node id. */
  node_progress: jsonRecord.default({}),
  /** Tokens the run's LLM stages used up to `journal_seq` (absent before any reported usage). */
  token_usage: TokenUsageFileSchema.optional(),
});

/** The checkpoint as read (`node_progress` is optional in older files). */
export type Checkpoint = z.infer<typeof CheckpointSchema>;

/** Longest the checkpoint may lag the journal while a run is going. */
export const CHECKPOINT_INTERVAL_MS = 500;

/**
 * One journal line: a node finished. Appended after every node, so the
 * durable state costs one small write per node whatever the run's length.
 * Resume replays the entries after the checkpoint.
 */
export const JournalEntrySchema = z.object({
  seq: z.number().int().positive(),
  node: z.string(),
  status: z.enum(STAGE_STATUSES),
  /** Retries the node used this time. */
  retries: z.number().int().nonnegative(),
  /** Context keys written while the node ran and was recorded, with their values. */
  context: jsonRecord,
  /** The node to run next; null when the run ended here. */
  next: z.string().nullable(),
  /** Set on the last entry of a run that ended: how it ended. */
  end: z.enum(['completed', 'failed', 'restarted']).optional(),
  failure_reason: z.string().optional(),
  /** Run-log lines added while the node ran. */
  logs: z.array(z.string()).optional(),
  /** With `end: "restarted"`: the run that continues the run. */
  restarted_to: z.string().optional(),
  /** Tokens the node's LLM calls used, when it made any. */
  usage: TokenUsageFileSchema.optional(),
});

/** A journal entry. */
export type JournalEntry = z.infer<typeof JournalEntrySchema>;

/** The journal as read back: its entries, and what a crash or damage left. */
export interface JournalRead {
  entries: JournalEntry[];
  /** A damaged complete entry: reading stopped before it. */
  problem?: string;
  /** True when the last entry was cut short by a crash (it is not in `entries`). */
  torn: boolean;
}

/** `pending-questions.json`: the questions a parked run waits for. */
export const PendingQuestionsSchema = z.object({
  format: z.literal('orchestra.pending/1'),
  questions: z.array(z.object({ id: z.string(), asked_at: z.string(), question: QuestionSchema })),
});
/** A parked run's `pending-questions.json` (`PendingQuestionsSchema`). */
export type PendingQuestions = z.infer<typeof PendingQuestionsSchema>;

/** `answers.json`: answers recorded for a parked run (by `orchestra answer`), by question id. */
export const RecordedAnswersSchema = z.object({
  format: z.literal('orchestra.answers/1'),
  answers: z.record(z.string(), AnswerSchema),
});
/** A parked run's `answers.json` (`RecordedAnswersSchema`). */
export type RecordedAnswers = z.infer<typeof RecordedAnswersSchema>;

/**
 * A process group started on a run's behalf (a tool command), recorded
 * before the command runs so that a later owner can stop what a killed one
 * left behind. `start_time` identifies the process (a PID may be reused).
 */
export const ProcessRecordSchema = z.object({
  pgid: z.number().int().positive(),
  /** The group leader's start time as the OS reports it (Linux: /proc starttime); null when unknown. */
  start_time: z.string().nullable(),
  host: z.string(),
  node: z.string(),
  command: z.string(),
});
/** A running tool command's process group, as a store records it (`ProcessRecordSchema`). */
export type ProcessRecord = z.infer<typeof ProcessRecordSchema>;

/** The owner of a run (the process holding its lease). */
export const LeaseHolderSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  /** The holder's start time (Linux: /proc starttime); null when unknown. */
  start_time: z.string().nullable(),
  acquired_at: z.string(),
  /**
   * When a lease its holder must renew runs out (ISO time; stores shared by
   * machines, such as PostgreSQL): past it, the holder counts as gone
   * whatever its host. Absent for leases that last as long as the process
   * (the file store's `run.lock`).
   */
  expires_at: z.string().optional(),
});
/** Who holds a run's lease (`LeaseHolderSchema`). */
export type LeaseHolder = z.infer<typeof LeaseHolderSchema>;
