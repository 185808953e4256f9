import type { Arrival, BranchResult, BranchRunner, RunView } from './handler.js';
import { addUsage, type TokenUsage } from './usage.js';
import type { RunContext } from './run-context.js';
import { runNodeStep, type StepEnvironment } from './node-step.js';
import { VisitGuard } from './visit-guard.js';

/** Most nodes one branch may run: a branch that loops forever is stopped and fails. */
export const MAX_BRANCH_STEPS = 10_000;

/**
 * A {@link BranchRunner} over the run's environment: runs nodes like the main
 * loop (handlers, retries, status files, events), but in the branch's own
 * context and without journaling them (a resumed run re-runs the branches
 * the parallel node had not recorded as succeeded; see parallel-progress.ts).
 * Stops before fan-in and exit nodes.
 */
export function createBranchRunner(env: Omit<StepEnvironment, 'runBranch' | 'signal'>, boundaries: ReadonlySet<string>): BranchRunner {
  const runBranch: BranchRunner = async (startNode: string, context: RunContext, signal: AbortSignal, fanOut?: string): Promise<BranchResult> => {
    const completedNodes: string[] = [];
    // Handlers in a branch see the nodes the branch completed after the main line's: a node that
    // counts its own visits (sub-pipeline, manager loop) must count those in its branch too.
    const main = env.run;
    const run: RunView = {
      ...main,
      ...(fanOut !== undefined ? { branch: { fanOut, visit: main.completedNodes.filter((id) => id === fanOut).length + 1 } } : {}),
      get completedNodes() {
        return [...main.completedNodes, ...completedNodes];
      },
    };
    const stepEnv: StepEnvironment = { ...env, signal, runBranch, run };
    let status: BranchResult['status'] = 'success';
    let failureReason: string | undefined;
    let current: string | undefined = startNode;
    let arrival: Arrival = { from: null };
    let usage: TokenUsage | undefined;
    const guard = new VisitGuard(env.graph, completedNodes);
    while (current !== undefined) {
      if (boundaries.has(current)) break;
      if (completedNodes.length >= MAX_BRANCH_STEPS) {
        status = 'fail';
        failureReason = `branch ran ${MAX_BRANCH_STEPS} nodes without reaching a fan-in node`;
        current = undefined;
        break;
      }
      const node = env.graph.nodes.get(current);
      if (!node) {
        status = 'fail';
        failureReason = `node ${current} does not exist`;
        current = undefined;
        break;
      }
      const runaway = guard.refusal(node);
      if (runaway) {
        status = 'fail';
        failureReason = runaway;
        break;
      }
      const step = await runNodeStep(stepEnv, node, context, completedNodes.length, arrival);
      completedNodes.push(node.id);
      guard.visited(node.id);
      usage = addUsage(usage, step.outcome.usage);
      arrival = step.next?.edge ? { from: node.id, edge: step.next.edge } : { from: node.id };
      status = step.outcome.status;
      failureReason = step.outcome.failureReason;
      current = step.next?.to;
    }
    const result: BranchResult = {
      id: startNode,
      status,
      completedNodes,
      stoppedAt: current ?? null,
      contextUpdates: context.takeChanges(),
      ...(usage ? { usage } : {}),
    };
    if (status === 'fail' && failureReason) result.failureReason = failureReason;
    return result;
  };
  return runBranch;
}
