import type { Graph, GraphNode } from '../graph/model.js';
import { findExitNodes } from '../graph/terminals.js';
import { goalGatesOf } from '../graph/goal-gates.js';
import { unsatisfiedGoalGate, type EngineState } from './engine-state.js';
import { retryTarget, type StepResult } from './node-step.js';
import type { Plan } from './plan.js';
import type { JournalEntry } from './store/records.js';
import type { ExitGateJump } from './store/verify-checkpoint.js';

/** A goal gate found unsatisfied where the run would end (for the `goal_gate.unsatisfied` event). */
export interface GateCheck {
  gate: string;
  retryTarget: string | null;
}

/** Where the run goes when it reaches the exit or a dead end. */
export interface GateDecision {
  /** The gate that sends the run back, or fails it. */
  check?: GateCheck;
  /** The gate's retry target, when it has one. */
  jumpTo?: string;
  /** Why the run fails, when a gate is unsatisfied and has no target. */
  failure?: string;
}

/**
 * Where the run goes when it reaches the exit (or a dead end): nowhere if
 * every visited goal gate succeeded; else the gate's retry target (node, then
 * graph level, spec §3.4); else it fails.
 */
export function checkGoalGates(plan: Pick<Plan, 'graph' | 'goalGates'>, state: EngineState): GateDecision {
  const gate = unsatisfiedGoalGate(plan.goalGates, state);
  if (gate === undefined) return {};
  const target = retryTarget(plan.graph, plan.graph.nodes.get(gate), true);
  const check = { gate, retryTarget: target ?? null };
  return target === undefined ? { check, failure: `goal gate ${gate} is unsatisfied and there is no retry target` } : { check, jumpTo: target };
}

/**
 * The retry target the engine jumps to when a run stands at one of `graph`'s
 * exits with an unsatisfied goal gate (a jump no journal entry records), for
 * checking a checkpoint against its journal.
 */
export function exitGateJump(graph: Graph): ExitGateJump {
  const exits = new Set(findExitNodes(graph).map((n) => n.id));
  const plan = { graph, goalGates: goalGatesOf(graph) };
  return (state) => (state.nextNode !== null && exits.has(state.nextNode) ? checkGoalGates(plan, state).jumpTo : undefined);
}

/** What a completed step means for the run: the journal entry's fields besides seq, node, status, retries, context, logs and usage. */
export interface StepDecision {
  next: string | null;
  end?: JournalEntry['end'];
  failureReason?: string;
  /** The next run's location when the step took a `loop_restart` edge. */
  restartTo?: string;
  /** A goal gate that decided a dead end. */
  gateCheck?: GateCheck;
}

/**
 * Decides where the run goes after `node` completed with `step` (spec §3.2):
 * the exit ends it (completed, or failed when the exit failed); an edge or
 * handler jump moves on (a `loop_restart` edge ends this run and continues in
 * `successor`); a failure with nowhere to go fails it; a dead end ends it
 * like the exit, goal gates first. Pure: the caller records and applies it.
 */
export function decideAfterStep(plan: Plan, state: EngineState, node: GraphNode, step: StepResult, successor: () => string): StepDecision {
  const failed = step.outcome.status === 'fail';
  if (plan.exitNodes.has(node.id)) {
    return failed ? { next: null, end: 'failed', failureReason: `exit node ${node.id} failed: ${step.outcome.failureReason ?? 'no reason given'}` } : { next: null, end: 'completed' };
  }
  if (step.next) {
    return step.next.loopRestart ? { next: step.next.to, end: 'restarted', restartTo: successor() } : { next: step.next.to };
  }
  if (failed) return { next: null, end: 'failed', failureReason: `${node.id} failed: ${step.outcome.failureReason ?? 'no reason given'}` };
  // A dead end (no eligible edge) ends the run like the exit would: goal gates first.
  // The step's own outcome counts: apply it to a copy of the outcomes before checking.
  const gates = checkGoalGates(plan, { ...state, nodeOutcomes: step.outcome.status === 'skipped' ? state.nodeOutcomes : { ...state.nodeOutcomes, [node.id]: step.outcome.status } });
  const gateCheck = gates.check ? { gateCheck: gates.check } : {};
  if (gates.jumpTo) return { next: gates.jumpTo, ...gateCheck };
  if (gates.failure) return { next: null, end: 'failed', failureReason: gates.failure, ...gateCheck };
  return { next: null, end: 'completed' };
}
