import type { Handler } from '../engine/handler.js';
import { STAGE_STATUSES, type StageStatus } from '../engine/outcome.js';

const RANK: Record<StageStatus, number> = { success: 0, partial_success: 1, retry: 2, fail: 3, skipped: 4 };

interface Candidate {
  id: string;
  index: number;
  status: StageStatus;
}

function candidates(value: unknown): Candidate[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown, i) => {
    const r = item as { id?: unknown; index?: unknown; status?: unknown };
    if (typeof r?.id !== 'string' || !(STAGE_STATUSES as readonly unknown[]).includes(r.status)) return [];
    return [{ id: r.id, index: typeof r.index === 'number' ? r.index : i, status: r.status as StageStatus }];
  });
}

/**
 * The fan-in node (`shape=tripleoctagon`, spec §4.9): picks the best branch
 * from `parallel.results` — best outcome first (success, partial success,
 * retry, fail), then declaration order — and records it as
 * `parallel.fan_in.best_id` and `parallel.fan_in.best_outcome`. Fails when
 * there are no results or every branch failed. (LLM-ranked selection with a
 * `prompt`, spec §4.9, is not implemented yet.)
 */
export const fanInHandler: Handler = {
  execute({ node, context }) {
    const all = candidates(context.get('parallel.results'));
    if (all.length === 0) return { status: 'fail', failureReason: 'No parallel results to evaluate' };
    const ranked = all.filter((c) => c.status !== 'skipped').sort((a, b) => RANK[a.status] - RANK[b.status] || a.index - b.index);
    const best = ranked[0];
    if (!best || best.status === 'fail') {
      return { status: 'fail', failureReason: `every branch before ${node.id} failed` };
    }
    return {
      status: 'success',
      contextUpdates: { 'parallel.fan_in.best_id': best.id, 'parallel.fan_in.best_outcome': best.status },
      notes: `Selected best candidate: ${best.id}`,
    };
  },
};
