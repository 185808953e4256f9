import { addUsage, type TokenUsage } from '../engine/usage.js';
import type { BranchResult, Handler } from '../engine/handler.js';
import type { JsonValue } from '../engine/outcome.js';
import { integerAttr } from '../graph/values.js';
import { resolveHandlerType } from '../graph/handler-types.js';
import { outgoingEdges, type Graph } from '../graph/model.js';
import { AnswerLater } from '../engine/answer-later.js';
import { ProgressSaver, parallelProgress, savedBranches } from './parallel-progress.js';

/** Join policies of the parallel handler (spec §4.8). */
export const JOIN_POLICIES = ['wait_all', 'first_success'] as const;

/** Branches run at once when the node does not say (`max_parallel`). */
export const DEFAULT_MAX_PARALLEL = 4;

/** A branch result as `parallel.results` holds it (JSON, snake_case like the files). */
function toJson(result: BranchResult, index: number): JsonValue {
  return {
    id: result.id,
    index,
    status: result.status,
    completed_nodes: result.completedNodes,
    stopped_at: result.stoppedAt,
    failure_reason: result.failureReason ?? null,
    context_updates: result.contextUpdates,
  };
}

/** The first fan-in node (`parallel.fan_in`) reachable from the branch starts, breadth first. */
function nearestFanIn(graph: Graph, starts: readonly string[]): string | undefined {
  const seen = new Set(starts);
  const queue = [...starts];
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i] as string;
    const node = graph.nodes.get(id);
    if (node && resolveHandlerType(node) === 'parallel.fan_in') return id;
    for (const e of outgoingEdges(graph, id)) {
      if (!seen.has(e.to)) {
        seen.add(e.to);
        queue.push(e.to);
      }
    }
  }
  return undefined;
}

/**
 * The fan-out node (`shape=component`, spec §4.8): runs every outgoing edge's
 * target as a branch, each in a clone of the context, at most `max_parallel`
 * at a time, until the branches reach their fan-in node. `join_policy`
 * `wait_all` (default) succeeds when no branch failed and is PARTIAL_SUCCESS
 * otherwise; `first_success` succeeds as soon as one branch succeeds (the
 * others are cancelled) and fails when none does. Branch contexts are not
 * merged: the results go to `parallel.results`, and the run continues at the
 * fan-in node the branches reached. Branches that succeeded are saved as the
 * node's progress, so when the node runs again before completing (a resumed
 * run, a retry) they are not run again. A branch that waits for a human
 * ({@link AnswerLater}) does not stop the others: once they are done, the
 * node parks with every branch's question.
 */
export const parallelHandler: Handler = {
  async execute({ node, graph, context, signal, runBranch, emit, progress, saveProgress }) {
    const branches = outgoingEdges(graph, node.id).map((e) => e.to);
    if (branches.length === 0) return { status: 'fail', failureReason: `parallel node ${node.id} has no outgoing edges to fan out to` };
    const policy = node.attributes.join_policy || 'wait_all';
    if (!(JOIN_POLICIES as readonly string[]).includes(policy)) {
      return { status: 'fail', failureReason: `unknown join_policy ${JSON.stringify(policy)}; use ${JOIN_POLICIES.join(' or ')}` };
    }
    const maxParallel = Math.max(1, integerAttr(node, 'max_parallel') ?? DEFAULT_MAX_PARALLEL);

    const started = performance.now();
    emit({ type: 'parallel.started', nodeId: node.id, branchCount: branches.length, joinPolicy: policy, maxParallel });
    const cancel = new AbortController();
    const branchSignal = AbortSignal.any([signal, cancel.signal]);
    const results: (BranchResult | undefined)[] = new Array(branches.length);
    const succeeded = savedBranches(progress, branches);
    for (const [index, result] of succeeded) results[index] = result;
    if (policy === 'first_success' && succeeded.size > 0) cancel.abort('a branch succeeded before the run stopped');
    const waiting: AnswerLater[] = [];
    // Tokens of the branches run now. Branches saved before a stop are not counted again, nor were they
    // counted then: like any node stopped mid-way, a stop loses the count of what it had spent.
    let usage: TokenUsage | undefined;
    // Succeeded branches are saved as the node's progress, in batches when saving costs more than the branches take.
    const saver = new ProgressSaver(() => saveProgress(parallelProgress(succeeded)));
    let nextIndex = 0;
    const worker = async (): Promise<void> => {
      while (nextIndex < branches.length && !branchSignal.aborted) {
        const index = nextIndex++;
        if (succeeded.has(index)) continue;
        const branch = branches[index] as string;
        const branchStarted = performance.now();
        emit({ type: 'parallel.branch_started', nodeId: node.id, branch, index });
        try {
          results[index] = await runBranch(branch, context.clone(), branchSignal, node.id);
        } catch (error) {
          if (error instanceof AnswerLater && !signal.aborted) {
            waiting.push(error); // the other branches go on; the node parks once they are done
            continue;
          }
          // A branch stopped because another one already won is not a failure; anything else is.
          if (signal.aborted || !cancel.signal.aborted) throw error;
          continue;
        }
        const result = results[index] as BranchResult;
        usage = addUsage(usage, result.usage);
        emit({ type: 'parallel.branch_completed', nodeId: node.id, branch, index, status: result.status, durationMs: performance.now() - branchStarted });
        if (result.status === 'success') {
          succeeded.set(index, result);
          saver.changed();
        }
        if (policy === 'first_success' && result.status === 'success') cancel.abort('another branch succeeded');
      }
    };
    const settled = await Promise.allSettled(Array.from({ length: Math.min(maxParallel, branches.length) }, worker));
    // Whatever happens next (a stop, a park, a retry of the node), every succeeded branch is saved first.
    const saved = await saver.flush();
    const rejected = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (rejected) throw rejected.reason;
    if (!saved.ok) throw saved.error;
    const [first, ...others] = waiting;
    if (first && !(policy === 'first_success' && succeeded.size > 0)) throw new AnswerLater(first.question, [...first.others, ...others.flatMap((w) => w.questions)], first.reason);
    // Branches cancelled or never started (first_success) count as skipped. (Array.from: `results` has holes.)
    const finished = Array.from(results, (r, i): BranchResult => r ?? { id: branches[i] as string, status: 'skipped', completedNodes: [], stoppedAt: null, contextUpdates: {} });
    const successCount = finished.filter((r) => r.status === 'success').length;
    const failureCount = finished.filter((r) => r.status === 'fail').length;
    // Where the branches met; branches that failed or were cancelled stopped before getting there.
    const reached = [...new Set(finished.flatMap((r) => (r.stoppedAt === null ? [] : [r.stoppedAt])))];
    const fallback = reached.length === 0 ? nearestFanIn(graph, branches) : undefined;
    const joins = fallback ? [fallback] : reached;
    const contextUpdates = { 'parallel.results': finished.map(toJson) };
    const summary = `${successCount} of ${branches.length} branches succeeded`;
    const spent = usage ? { usage } : {};
    emit({ type: 'parallel.completed', nodeId: node.id, durationMs: performance.now() - started, successCount, failureCount });

    if (joins.length !== 1) {
      const where = joins.length ? `they stopped at ${joins.join(', ')}` : 'no fan-in node follows them';
      return { status: 'fail', contextUpdates, failureReason: `the branches of ${node.id} do not meet at one fan-in node (${where})`, ...spent };
    }
    const join = joins[0] as string;
    if (policy === 'first_success') {
      return successCount > 0
        ? { status: 'success', contextUpdates, notes: summary, nextNode: join, ...spent }
        : { status: 'fail', contextUpdates, failureReason: `no branch of ${node.id} succeeded`, ...spent };
    }
    return { status: failureCount === 0 ? 'success' : 'partial_success', contextUpdates, notes: summary, nextNode: join, ...spent };
  },
};
