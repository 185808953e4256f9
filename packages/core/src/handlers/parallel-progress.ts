import { z } from 'zod';
import type { BranchResult } from '../engine/handler.js';
import type { JsonValue } from '../engine/outcome.js';
import { STAGE_STATUSES } from '../engine/outcome.js';

const BranchResultSchema = z.object({
  id: z.string(),
  status: z.enum(STAGE_STATUSES),
  completedNodes: z.array(z.string()),
  stoppedAt: z.string().nullable(),
  failureReason: z.string().optional(),
  contextUpdates: z.record(z.string(), z.unknown()) as unknown as z.ZodType<Record<string, JsonValue>>,
});

/**
 * What a parallel node saves as its progress (`HandlerInput.saveProgress`):
 * the branches that succeeded, by their index among the node's outgoing
 * edges. When the node runs again before it completed (a resumed run, say
 * after a branch parked at a human gate), those branches are not run again.
 */
export const ParallelProgressSchema = z.object({
  format: z.literal('orchestra.parallel/1'),
  succeeded: z.record(z.string(), BranchResultSchema),
});
/** What a parallel node saves as its `node_progress` (`ParallelProgressSchema`). */
export type ParallelProgress = z.infer<typeof ParallelProgressSchema>;

/** The succeeded branches a parallel node saved, by index; none when there is nothing (usable) saved. */
export function savedBranches(progress: JsonValue | undefined, branches: readonly string[]): Map<number, BranchResult> {
  const parsed = ParallelProgressSchema.safeParse(progress);
  const saved = new Map<number, BranchResult>();
  if (!parsed.success) return saved;
  for (const [key, result] of Object.entries(parsed.data.succeeded)) {
    const index = Number(key);
    // Only a result for the same branch counts (the pipeline file is the run's own copy, but be safe).
    if (branches[index] === result.id) saved.set(index, result as BranchResult);
  }
  return saved;
}

/** The progress to save once the branches in `succeeded` are done. */
export function parallelProgress(succeeded: ReadonlyMap<number, BranchResult>): ParallelProgress {
  return { format: 'orchestra.parallel/1', succeeded: Object.fromEntries([...succeeded].map(([i, r]) => [String(i), r])) };
}

/**
 * Saving progress rewrites the whole checkpoint, which holds every succeeded
 * branch: a save takes time in proportion to the branches saved, so saving
 * after every branch makes a wide fan-out quadratic (10,000 fast branches:
 * minutes instead of seconds). After a save, the next one waits this many
 * times as long as that save took, which keeps saving under about
 * 1/SAVE_COST_FACTOR of the node's time at any width. Branches slower than
 * that wait (LLM stages: seconds each, a save: milliseconds) are still saved
 * as each one succeeds; a process killed during a wait re-runs, on resume,
 * the branches that succeeded in it.
 */
export const SAVE_COST_FACTOR = 50;

/**
 * Calls `save` after {@link ProgressSaver.changed}, at once when the last
 * save is long enough ago (see {@link SAVE_COST_FACTOR}), else when it is; one
 * save at a time. {@link ProgressSaver.flush} saves what is left.
 */
export class ProgressSaver {
  /** Changes since the last save started. */
  private unsaved = 0;
  private nextSaveAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private failure: { error: unknown } | undefined;

  constructor(private readonly save: () => Promise<void>) {}

  /** Something to save happened. */
  changed(): void {
    this.unsaved += 1;
    this.schedule();
  }

  /**
   * Saves every change not saved yet and waits for it; stops the timer.
   * Gives the first save that failed (it is not retried).
   */
  async flush(): Promise<{ ok: true } | { ok: false; error: unknown }> {
    while (this.running || (this.unsaved > 0 && !this.failure)) {
      if (this.running) await this.running;
      else await this.start();
    }
    this.stopTimer();
    return this.failure ? { ok: false, error: this.failure.error } : { ok: true };
  }

  private schedule(): void {
    if (this.running || this.timer || this.failure) return;
    const wait = this.nextSaveAt - performance.now();
    if (wait <= 0) void this.start();
    else this.timer = setTimeout(() => void this.start(), wait);
  }

  private stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private start(): Promise<void> {
    this.stopTimer();
    if (this.running || this.unsaved === 0) return this.running ?? Promise.resolve();
    this.unsaved = 0;
    const began = performance.now();
    this.running = new Promise<void>((resolve) => resolve(this.save())).then(
      () => {
        const ended = performance.now();
        this.nextSaveAt = ended + (ended - began) * SAVE_COST_FACTOR;
        this.running = undefined;
        if (this.unsaved > 0) this.schedule();
      },
      (error: unknown) => {
        this.failure ??= { error };
        this.running = undefined;
      },
    );
    return this.running;
  }
}
