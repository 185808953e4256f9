import type { Handler } from '../engine/handler.js';
import { STAGE_STATUSES, type JsonValue, type Outcome, type StageStatus } from '../engine/outcome.js';
import { FAN_IN_VOTES_ATTR, countVotes, voteKeys } from './fan-in-votes.js';

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

/** Outcome first (success, partial success, retry, fail), then declaration order. */
const byOutcome = (a: Candidate, b: Candidate): number => RANK[a.status] - RANK[b.status] || a.index - b.index;

/**
 * The fan-in node (`shape=tripleoctagon`, spec §4.9): picks the best branch
 * from `parallel.results` — best outcome first (success, partial success,
 * retry, fail), then declaration order — and records it as
 * `parallel.fan_in.best_id` and `parallel.fan_in.best_outcome`. Fails when
 * there are no results or every branch failed. (LLM-ranked selection with a
 * `prompt`, spec §4.9, is not implemented yet.)
 *
 * With `fan_in.votes="key1,key2,..."` (an orchestra extension) it picks by
 * vote instead: each key holds a vote (an LLM stage's response, `VOTE:
 * <branch id>` on its last such line; see `readVote`), and the branch with
 * an answer that most votes name wins; a tie goes to the better outcome,
 * then to declaration order, and with no valid vote it picks as without
 * votes. Each vote (`parallel.fan_in.votes`: key → branch, or null) and the
 * count (`parallel.fan_in.tally`) are recorded with the pick.
 */
export const fanInHandler: Handler = {
  execute({ node, context }): Outcome {
    const all = candidates(context.get('parallel.results'));
    if (all.length === 0) return { status: 'fail', failureReason: 'No parallel results to evaluate' };
    const ranked = all.filter((c) => c.status !== 'skipped').sort(byOutcome);
    const best = ranked[0];
    if (!best || best.status === 'fail') {
      return { status: 'fail', failureReason: `every branch before ${node.id} failed` };
    }
    const keys = voteKeys(node.attributes[FAN_IN_VOTES_ATTR]);
    if (keys.length === 0) {
      return {
        status: 'success',
        contextUpdates: { 'parallel.fan_in.best_id': best.id, 'parallel.fan_in.best_outcome': best.status },
        notes: `Selected best candidate: ${best.id}`,
      };
    }
    const eligible = ranked.filter((c) => c.status !== 'fail');
    const values = Object.fromEntries(keys.map((k) => [k, context.get(k)]));
    const count = countVotes(keys, values, all.map((c) => c.id), eligible.map((c) => c.id));
    const votesOf = (c: Candidate) => count.tally[c.id] ?? 0;
    const [winner, ...rest] = [...eligible].sort((a, b) => votesOf(b) - votesOf(a) || byOutcome(a, b)) as [Candidate, ...Candidate[]];
    let why: string;
    if (count.valid === 0) why = `no valid vote of ${keys.length}; picked by outcome, then declaration order`;
    else {
      why = `${votesOf(winner)} of ${keys.length} votes`;
      const tied = rest.filter((c) => votesOf(c) === votesOf(winner));
      if (tied.length > 0) {
        const sameOutcome = tied.filter((c) => RANK[c.status] === RANK[winner.status]).length;
        const rule = sameOutcome === 0 ? 'outcome' : sameOutcome === tied.length ? 'declaration order' : 'outcome, then declaration order';
        why += `; a tie with ${tied.map((c) => c.id).join(', ')}, broken by ${rule}`;
      }
    }
    return {
      status: 'success',
      contextUpdates: {
        'parallel.fan_in.best_id': winner.id,
        'parallel.fan_in.best_outcome': winner.status,
        'parallel.fan_in.votes': count.votes as Record<string, JsonValue>,
        'parallel.fan_in.tally': count.tally,
      },
      notes: `Selected best candidate: ${winner.id} (${why})`,
    };
  },
};
