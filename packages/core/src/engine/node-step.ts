import type { Graph, GraphEdge, GraphNode } from '../graph/model.js';
import { booleanAttr } from '../graph/values.js';
import type { EventBus } from './event-bus.js';
import type { EdgeChoiceReason } from './events.js';
import { executeNode } from './execute-node.js';
import type { Clock } from './clock.js';
import type { Arrival, BranchRunner, ChildRuns, Handler, ProcessLedger, RunView } from './handler.js';
import type { ProgressStore } from './node-progress.js';
import type { Outcome } from './outcome.js';
import { buildRetryPolicy } from './retry-policy.js';
import type { RunContext } from './run-context.js';
import type { RunRecorder } from './run-recorder.js';
import { selectEdge } from './select-edge.js';

/** What running one node needs from the run around it. */
export interface StepEnvironment {
  graph: Graph;
  handlers: ReadonlyMap<string, { type: string; handler: Handler }>;
  logsRoot: string;
  recorder: RunRecorder;
  events: EventBus;
  signal: AbortSignal;
  random: () => number;
  clock: Clock;
  workdir: string;
  /** The ledger a node's commands are recorded in. */
  processes: (nodeId: string) => ProcessLedger;
  /** The child runs a node starts. */
  children: (nodeId: string) => ChildRuns;
  runBranch: BranchRunner;
  progress: ProgressStore;
  run: RunView;
}

/** Where the run goes after a node, and why. */
export interface NextHop {
  to: string;
  label: string;
  reason: EdgeChoiceReason;
  /** The edge taken has `loop_restart=true`. */
  loopRestart: boolean;
  /** The edge taken, when the hop follows one. */
  edge?: GraphEdge;
}

/** A completed node: its final outcome, retries, and the next hop (none: the run or branch ends here). */
export interface StepResult {
  outcome: Outcome;
  retries: number;
  next?: NextHop;
}

/** The retry target of a node or, failing that, the graph's (spec §3.4, §3.7), if it names a node. */
export function retryTarget(graph: Graph, node: GraphNode | undefined, includeGraph: boolean): string | undefined {
  const candidates = [node?.attributes.retry_target, node?.attributes.fallback_retry_target];
  if (includeGraph) candidates.push(graph.attributes.retry_target, graph.attributes.fallback_retry_target);
  return candidates.find((id): id is string => !!id && graph.nodes.has(id));
}

/**
 * Runs one node in a context (the run's, or a parallel branch's): executes
 * its handler with retries, applies the outcome to the context, writes
 * `status.json`, and chooses where to go next — a node the handler named
 * (`outcome.nextNode`), else an edge (spec §3.3), else for a failure the
 * node's retry target (§3.7). Throws `Interrupted` when the run is cancelled.
 * The caller decides what a missing next hop means and records the step.
 */
export async function runNodeStep(env: StepEnvironment, node: GraphNode, context: RunContext, index: number, arrival: Arrival): Promise<StepResult> {
  const { graph, events } = env;
  context.set('current_node', node.id);
  const { type, handler } = env.handlers.get(node.id) as { type: string; handler: Handler };
  const stage = await env.recorder.stage(node.id);
  const { outcome, retries } = await executeNode(node, {
    graph,
    handler,
    handlerType: type,
    context,
    logsRoot: env.logsRoot,
    stage,
    workdir: env.workdir,
    processes: env.processes(node.id),
    children: env.children(node.id),
    clock: env.clock,
    policy: buildRetryPolicy(node, graph),
    signal: env.signal,
    events,
    index,
    random: env.random,
    runBranch: env.runBranch,
    progress: env.progress,
    run: env.run,
    arrival,
  });
  env.progress.discard(node.id); // the node completed: a later visit starts afresh

  if (outcome.contextUpdates) context.applyUpdates(outcome.contextUpdates);
  if (outcome.status !== 'skipped') {
    context.set('outcome', outcome.status);
    if (outcome.preferredLabel) context.set('preferred_label', outcome.preferredLabel);
  }
  // Only nodes that retried get a counter: a key per node would grow every checkpoint with the run.
  const retryKey = `internal.retry_count.${node.id}`;
  if (retries > 0 || context.has(retryKey)) context.set(retryKey, retries);
  await env.recorder.writeStatus(stage, outcome);

  const failed = outcome.status === 'fail';
  let next: NextHop | undefined;
  if (outcome.nextNode !== undefined && graph.nodes.has(outcome.nextNode)) {
    next = { to: outcome.nextNode, label: '', reason: 'handler', loopRestart: false };
  } else {
    const choice = selectEdge(graph, node.id, outcome, context, failed);
    if (choice) {
      next = { to: choice.edge.to, label: choice.edge.attributes.label ?? '', reason: choice.reason, loopRestart: booleanAttr(choice.edge, 'loop_restart'), edge: choice.edge };
    } else if (failed) {
      const target = retryTarget(graph, node, false);
      if (target !== undefined) next = { to: target, label: '', reason: 'failure_route', loopRestart: false };
    }
  }
  if (next) events.emit({ type: 'edge.selected', from: node.id, to: next.to, label: next.label, reason: next.reason });
  return { outcome, retries, ...(next ? { next } : {}) };
}
