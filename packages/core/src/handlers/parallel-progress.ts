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
