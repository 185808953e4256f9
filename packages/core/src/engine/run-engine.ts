import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Graph } from '../graph/model.js';
import { stopProcessGroups } from '../os/stop-process-groups.js';
import { AnswerLater } from './answer-later.js';
import { systemClock } from './clock.js';
import type { EngineOptions } from './engine-options.js';
import { decideAfterStep, checkGoalGates } from './decide.js';
import { applyEntry, initialState, type EngineState } from './engine-state.js';
import type { EventBus } from './event-bus.js';
import { Interrupted } from './execute-node.js';
import type { Arrival, RunView } from './handler.js';
import { runNodeStep, type StepEnvironment, type StepResult } from './node-step.js';
import type { Plan } from './plan.js';
import { createBranchRunner } from './run-branch.js';
import { RunContext } from './run-context.js';
import { RunRecorder } from './run-recorder.js';
import { abortReason, finish, interrupt, park, type Session } from './session.js';
import { childRuns, processLedger, progressStore } from './session-services.js';
import type { RunResult } from './run-result.js';
import { readPendingQuestions, writePendingQuestions } from './store/pending-questions.js';
import type { JournalEntry, Manifest } from './store/records.js';
import { pipelineHash } from './store/pipeline-hash.js';
import type { RestoredRun } from './store/restore.js';
import type { RunLease, RunStore } from './store/run-store.js';
import { usageToFile } from './usage.js';
import { VisitGuard } from './visit-guard.js';

/** The orchestra version recorded in manifests. */
export const ORCHESTRA_VERSION = '0.1.0';

export type { EngineOptions } from './engine-options.js';

/** How long the engine may run steps without yielding to the event loop (so signals and timers are served). */
const YIELD_EVERY_MS = 10;

/** A run that ended on a `loop_restart` edge: where the next run starts. */
export interface Restart {
  restartAt: string;
  store: RunStore;
  from: string;
}

function freshContext(graph: Graph, initial: Record<string, unknown> | undefined): RunContext {
  const context = new RunContext(initial);
  context.set('graph.goal', graph.attributes.goal ?? '');
  context.takeChanges();
  return context;
}

/** The manifest of a new run. */
function manifestOf(plan: Plan, store: RunStore, options: EngineOptions, startAt: string, restartedFrom: string | null): Manifest {
  const { graph } = plan;
  return {
    format: 'orchestra.run/1',
    run_id: store.runId,
    pipeline: graph.name,
    goal: graph.attributes.goal ?? '',
    source_file: options.sourceFile ?? null,
    started_at: new Date().toISOString(),
    orchestra_version: ORCHESTRA_VERSION,
    start_node: startAt,
    restarted_from: restartedFrom,
    ...(options.source !== undefined ? { pipeline_sha256: pipelineHash(options.source) } : {}),
    initial_context: (options.initialContext ?? {}) as Record<string, unknown>,
    workdir: options.workdir,
    ...(options.runOptions ? { run_options: options.runOptions } : {}),
  };
}

/**
 * Creates a run in `store` and drives it from `startAt`, holding the store's
 * lease throughout; follows `loop_restart`s into the store's successors.
 */
export async function startRun(plan: Plan, store: RunStore, options: EngineOptions, events: EventBus, startAt = plan.startNode, restartedFrom: string | null = null): Promise<RunResult> {
  return followRestarts(plan, options, events, await startOne(plan, store, options, events, startAt, restartedFrom));
}

/**
 * Creates a run in `store` without driving it: its manifest and pipeline
 * copy only, as a run killed before its first node leaves it. A resume
 * (by any process sharing the store: a worker) starts it from the start
 * node with the context and options it was created with.
 */
export async function createRunRecord(plan: Plan, store: RunStore, options: EngineOptions): Promise<void> {
  freshContext(plan.graph, options.initialContext); // a bad value throws before anything is written
  await store.create(manifestOf(plan, store, options, plan.startNode, null), options.source);
}

async function startOne(plan: Plan, store: RunStore, options: EngineOptions, events: EventBus, startAt: string, restartedFrom: string | null): Promise<RunResult | Restart> {
  const context = freshContext(plan.graph, options.initialContext); // a bad value throws before anything is written
  await store.create(manifestOf(plan, store, options, startAt, restartedFrom), options.source);
  const lease = await store.acquire();
  try {
    return await runSession(plan, store, options, events, context, initialState(startAt), false);
  } finally {
    await lease.release();
  }
}

async function followRestarts(plan: Plan, options: EngineOptions, events: EventBus, first: RunResult | Restart): Promise<RunResult> {
  let ended = first;
  while ('restartAt' in ended) ended = await startOne(plan, ended.store, options, events, ended.restartAt, ended.from);
  return ended;
}

/**
 * Continues a run restored from its store (see `resumePipeline`), whose
 * lease the caller holds (and releases). First stops the commands a dead
 * owner left running; then drives the run on and follows `loop_restart`s.
 */
export async function continueRun(plan: Plan, store: RunStore, options: EngineOptions, events: EventBus, restored: RestoredRun, lease: RunLease): Promise<RunResult> {
  void lease; // held by the caller for the whole continuation
  const context = RunContext.restore(restored.context, restored.logs);
  const state = restored.state;
  state.status = 'running';
  // A run recorded and never started (queued for a worker) starts now: its first events say so, not "resumed".
  const fresh = state.completedNodes.length === 0 && state.currentNode === null;
  const ended = await runSession(plan, store, options, events, context, state, !fresh);
  return followRestarts(plan, options, events, ended);
}

/**
 * Stops process groups recorded by an owner that died, when they are
 * verifiably the ones it started; reports the others (never signalled).
 * Records both in the events.
 */
async function stopOrphans(store: RunStore, events: EventBus): Promise<void> {
  const recorded = await store.listProcesses();
  if (recorded.length === 0) return;
  const { stopped, unverified } = await stopProcessGroups(recorded);
  for (const record of recorded) await store.forgetProcess(record.pgid);
  if (stopped.length > 0) events.emit({ type: 'run.orphans_stopped', processes: stopped.map((p) => ({ pgid: p.pgid, node: p.node, command: p.command })) });
  if (unverified.length > 0) {
    events.emit({ type: 'run.orphans_unverified', processes: unverified.map((p) => ({ pgid: p.pgid, node: p.node, command: p.command, reason: p.reason })) });
  }
}

async function runSession(plan: Plan, store: RunStore, options: EngineOptions, events: EventBus, context: RunContext, state: EngineState, resumed: boolean): Promise<RunResult | Restart> {
  const recorder = new RunRecorder(store, events, options.checkpointIntervalMs);
  try {
    if (resumed && (await readPendingQuestions(store)).length > 0) await writePendingQuestions(store, []);
    await recorder.checkpoint(state, context, true);
    events.emit({ type: 'pipeline.started', pipeline: plan.graph.name, logsRoot: store.location, resumed, startNode: state.nextNode ?? '' });
    if (resumed) await stopOrphans(store, events);
    return await drive({ plan, options, store, context, state, events, recorder, clock: options.clock ?? systemClock, started: performance.now() });
  } finally {
    await recorder.close();
  }
}

/** The journal entry recording a completed step. */
function entryOf(session: Session, nodeId: string, step: StepResult, decision: ReturnType<typeof decideAfterStep>): JournalEntry {
  const { context, state } = session;
  const logs = context.takeNewLogs();
  return {
    seq: state.seq + 1,
    node: nodeId,
    status: step.outcome.status,
    retries: step.retries,
    context: context.takeChanges(),
    next: decision.next,
    ...(decision.end ? { end: decision.end } : {}),
    ...(decision.failureReason ? { failure_reason: decision.failureReason } : {}),
    ...(logs.length ? { logs } : {}),
    ...(decision.restartTo ? { restarted_to: decision.restartTo } : {}),
    ...(step.outcome.usage ? { usage: usageToFile(step.outcome.usage) } : {}),
  };
}

/** Steps taken by each call of the engine (one options object), across its `loop_restart`s. */
const stepsTaken = new WeakMap<EngineOptions, number>();

/**
 * Counts a step (a node run, or the exit sending the run back to a goal
 * gate's retry target) and says why the run must stop when it is one more
 * than {@link EngineOptions.maxSteps}.
 */
function overStepLimit(options: EngineOptions): string | undefined {
  if (options.maxSteps === undefined) return undefined;
  const taken = (stepsTaken.get(options) ?? 0) + 1;
  stepsTaken.set(options, taken);
  if (taken <= options.maxSteps) return undefined;
  return `the run took more than ${options.maxSteps} steps (maxSteps=${options.maxSteps}) without ending`;
}

/**
 * The engine loop (spec §3.2), from `state.nextNode` until the run ends, is
 * interrupted, parks or restarts: step → decide → append → apply.
 */
async function drive(session: Session): Promise<RunResult | Restart> {
  const { plan, options, context, state, events, recorder, store } = session;
  const { graph } = plan;
  const signal = options.signal ?? new AbortController().signal;
  const run: RunView = {
    id: store.runId,
    logsRoot: store.location,
    sourceFile: options.sourceFile ?? null,
    completedNodes: state.completedNodes,
    nodeOutcomes: state.nodeOutcomes,
    resumedAfter: state.completedNodes.length,
  };
  const base = {
    graph,
    handlers: plan.handlers,
    logsRoot: store.location,
    recorder,
    events,
    random: options.random ?? Math.random,
    clock: session.clock,
    workdir: options.workdir,
    processes: (nodeId: string) => processLedger(store, nodeId),
    children: (nodeId: string) => childRuns(store, nodeId, options.childRunner),
    progress: progressStore(session),
    run,
  };
  const env: StepEnvironment = { ...base, signal, runBranch: createBranchRunner(base, plan.branchBoundaries) };
  let successor: RunStore | undefined;
  const successorLocation = () => (successor ??= store.successor()).location;
  // The edge taken before a stop is not recorded: a resumed run takes the first edge between the two nodes.
  const resumedEdge = state.currentNode === null ? undefined : graph.edges.find((e) => e.from === state.currentNode && e.to === state.nextNode);
  let arrival: Arrival = resumedEdge ? { from: state.currentNode, edge: resumedEdge } : { from: state.currentNode };
  let lastYield = performance.now();
  const guard = new VisitGuard(graph, state.completedNodes);

  while (state.nextNode !== null) {
    // A loop of nodes that never wait would hold the event loop: signals (Ctrl-C, SIGTERM) could not be served.
    if (performance.now() - lastYield > YIELD_EVERY_MS) {
      await yieldToEventLoop();
      lastYield = performance.now();
    }
    // A store write that failed (a full disk) stops the run before another node runs (and uses, say, a recorded answer).
    await recorder.settle();
    if (signal.aborted) return interrupt(session, abortReason(signal));
    const tooMany = overStepLimit(options);
    if (tooMany) return finish(session, 'failed', tooMany);
    const node = graph.nodes.get(state.nextNode);
    if (!node) return finish(session, 'failed', `node ${state.nextNode} does not exist`);

    if (plan.exitNodes.has(node.id)) {
      const gates = checkGoalGates(plan, state);
      if (gates.check) events.emit({ type: 'goal_gate.unsatisfied', nodeId: gates.check.gate, retryTarget: gates.check.retryTarget });
      if (gates.failure) return finish(session, 'failed', gates.failure);
      if (gates.jumpTo) {
        state.nextNode = gates.jumpTo;
        arrival = { from: state.currentNode };
        continue;
      }
    }

    const runaway = guard.refusal(node);
    if (runaway) return finish(session, 'failed', runaway);

    let step: StepResult;
    try {
      step = await runNodeStep(env, node, context, state.completedNodes.length, arrival);
    } catch (error) {
      if (error instanceof Interrupted) {
        context.rollback(); // the node did not complete: nothing of it is kept
        return interrupt(session, abortReason(signal));
      }
      if (error instanceof AnswerLater) {
        context.rollback();
        return park(session, error);
      }
      throw error;
    }
    const decision = decideAfterStep(plan, state, node, step, successorLocation);
    if (decision.gateCheck) events.emit({ type: 'goal_gate.unsatisfied', nodeId: decision.gateCheck.gate, retryTarget: decision.gateCheck.retryTarget });
    const entry = entryOf(session, node.id, step, decision);
    await recorder.appendJournal(entry);
    applyEntry(state, entry);
    guard.visited(node.id);
    arrival = step.next?.edge ? { from: node.id, edge: step.next.edge } : { from: node.id };

    if (decision.end === 'restarted' && successor && decision.next !== null) {
      await recorder.checkpoint(state, context, true);
      events.emit({ type: 'checkpoint.saved', nodeId: node.id, completedNodes: state.completedNodes.length, file: true });
      events.emit({ type: 'pipeline.restarted', from: node.id, to: decision.next, logsRoot: successor.location });
      return { restartAt: decision.next, store: successor, from: store.location };
    }
    if (decision.end === 'completed' || decision.end === 'failed') return finish(session, decision.end, decision.failureReason ?? null, node.id);
    const file = await recorder.checkpoint(state, context);
    events.emit({ type: 'checkpoint.saved', nodeId: node.id, completedNodes: state.completedNodes.length, file });
  }
  return finish(session, 'completed', null);
}

/**
 * Starts the run a `loop_restart` asked for when it was never created (the
 * process died in between); used by resume.
 */
export async function startRestartedRun(plan: Plan, options: EngineOptions, events: EventBus, restart: Restart): Promise<RunResult> {
  return followRestarts(plan, options, events, restart);
}
