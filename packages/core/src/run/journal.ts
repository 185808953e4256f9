import { readFileSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { STAGE_STATUSES, type JsonValue } from '../engine/outcome.js';
import { TokenUsageFileSchema } from '../engine/usage.js';
import { RUN_FILES } from './run-files.js';

/**
 * One line of `journal.jsonl`: a node finished. Appended after every node
 * (flushed to disk with each checkpoint, or every line with `syncEveryNode`),
 * so the durable state costs one small write per node whatever the run's
 * length. Resume replays the lines after the checkpoint.
 */
export const JournalEntrySchema = z.object({
  seq: z.number().int().positive(),
  node: z.string(),
  status: z.enum(STAGE_STATUSES),
  /** Retries the node used this time. */
  retries: z.number().int().nonnegative(),
  /** Context keys written while the node ran and was recorded, with their values. */
  context: z.record(z.string(), z.unknown()) as unknown as z.ZodType<Record<string, JsonValue>>,
  /** The node to run next; null when the run ended here. */
  next: z.string().nullable(),
  /** Set on the last entry of a run that ended: how it ended. */
  end: z.enum(['completed', 'failed', 'restarted']).optional(),
  failure_reason: z.string().optional(),
  /** Run-log lines added while the node ran. */
  logs: z.array(z.string()).optional(),
  /** With `end: "restarted"`: the run directory that continues the run. */
  restarted_to: z.string().optional(),
  /** Tokens the node's LLM calls used, when it made any. */
  usage: TokenUsageFileSchema.optional(),
});

/** A journal line. */
export type JournalEntry = z.infer<typeof JournalEntrySchema>;

/**
 * The journal's entries in order, with the byte length of its complete lines
 * and of a torn tail. Bytes after the last newline are a line a crash cut
 * short: they are dropped and that node simply runs again. A complete line
 * that does not parse means the file was damaged: reading stops there and the
 * problem is reported.
 */
export function readJournal(logsRoot: string): { entries: JournalEntry[]; problem?: string; tornBytes: number; validBytes: number } {
  let text: string;
  try {
    text = readFileSync(join(logsRoot, RUN_FILES.journal), 'utf8');
  } catch {
    return { entries: [], tornBytes: 0, validBytes: 0 };
  }
  const validBytes = Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1));
  const tornBytes = Buffer.byteLength(text) - validBytes;
  // The piece after the last newline is '' (clean end) or a line torn by a crash: drop it.
  const complete = text.split('\n').slice(0, -1);
  const entries: JournalEntry[] = [];
  for (let i = 0; i < complete.length; i++) {
    let parsed: JournalEntry | undefined;
    try {
      const result = JournalEntrySchema.safeParse(JSON.parse(complete[i] as string));
      if (result.success) parsed = result.data;
    } catch {
      // handled below
    }
    if (!parsed) return { entries, problem: `journal.jsonl line ${i + 1} is damaged; replay stopped before it`, tornBytes, validBytes };
    entries.push(parsed);
  }
  return { entries, tornBytes, validBytes };
}

/** Cuts a line torn by a crash off the journal, so appended lines start on a line of their own. */
export function dropTornJournalTail(logsRoot: string, validBytes: number): void {
  truncateSync(join(logsRoot, RUN_FILES.journal), validBytes);
}
