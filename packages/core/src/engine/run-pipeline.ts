import { OrchestraError } from '../errors.js';
import { resolveHandlerType } from '../graph/handler-types.js';
import { findExitNodes, findStartNodes } from '../graph/terminals.js';
import type { Graph, GraphNode } from '../graph/model.js';
import { booleanAttr } from '../graph/values.js';
import { validateOrRaise } from '../lint/validate.js';
import type { CodergenBackend } from '../handlers/codergen-backend.js';
import type { Interviewer } from '../human/interviewer.js';
import { AnswerLater, readPendingQuestions, writePendingQuestions } from '../human/park.js';
import { createDefaultRegistry, createLlmHandler } from '../handlers/default-registry.js';
import { AutoApproveInterviewer } from '../human/simple-interviewers.js';
import { createRunDirectory, defaultLogsRoot } from '../run/run-directory.js';
import type { Manifest } from '../run/manifest.js';
import type { JournalEntry } from '../run/journal.js';
import { applyEntry, initialState, unsatisfiedGoalGate, type EngineState } from './engine-state.js';
import { EventBus } from './event-bus.js';
import type { RunEvent } from './events.js';
import { Interrupted } from './execute-node.js';
import { retryTarget, runNodeStep, type StepEnvironment, type StepResult } from './node-step.js';
import { createBranchRunner } from './run-branch.js';
import type { Arrival, Handler, RunView } from './handler.js';
import { usageToFile, type TokenUsage } from './usage.js';
import type { HandlerRegistry } from './handler-registry.js';
import type { JsonValue } from './outcome.js';
import type { ProgressStore } from './node-progress.js';
import { RunContext, toJsonValue } from './run-context.js';
import { RunRecorder } from './run-recorder.js';

/** The orchestra version recorded in manifests. */
export const ORCHESTRA_VERSION = '0.1.0';

/** Options of {@link runPipeline} and {@link resumePipeline}. */
export interface RunOptions {
  /** Runs LLM stages; required when the pipeline has any (use `simulationBackend` to simulate). */
  backend?: CodergenBackend;
  /** Handlers to use; defaults to the built-ins (plus codergen over `backend`, wait.human asking `interviewer`). */
  registry?: HandlerRegistry;
  /** Who answers human gates when the default registry is used (default: auto-approve). */
  interviewer?: Interviewer;
  /** Run directory; default `.orchestra/runs/<timestamp>-<pipeline>` under `workdir`. */
  logsRoot?: string;
  /** Cancels the run at a safe point: the checkpoint is kept and the run can be resumed. */
  signal?: AbortSignal;
  /** Called for every event. */
  onEvent?: (event: RunEvent) => void;
  /** An event bus to emit on (for `stream()` consumers); one is created otherwise. */
  events?: EventBus;
  /** Initial context values (`--set key=value`). */
  initialContext?: Record<string, unknown>;
  /** Directory tool commands run in; default `process.cwd()`. */
  workdir?: string;
  /** The pipeline's DOT text, copied into the run directory so `resume` runs the same graph. */
  source?: string;
  /** Where the pipeline came from, for the manifest. */
  sourceFile?: string;
  /** Random source for backoff jitter (tests pass a fixed one). */
  random?: () => number;
  /** Longest `checkpoint.json` may lag the journal during a run (default 500 ms). */
  checkpointIntervalMs?: number;
  /**
   * Flush the journal to disk after every node, not only with each checkpoint.
   * Without it a killed process still loses nothing; with it, neither does a
   * power loss. Costs about one disk flush per node.
   */
  syncEveryNode?: boolean;
}

/** How a run ended. */
export interface RunResult {
  /** `success`, `fail`, `interrupted` (resumable), or `parked` (waiting for an answer; resumable). */
  status: 'success' | 'fail' | 'interrupted' | 'parked';
  /** Node ids in the order they completed. */
  completedNodes: string[];
  /** The final context. */
  context: Record<string, JsonValue>;
  /** The run directory (the last one, after `loop_restart`). */
  logsRoot: string;
  failureReason?: string;
  /** Retries used across the run. */
  retries: number;
  durationMs: number;
  /** True when `resumePipeline` found the run already finished and ran nothing. */
  alreadyFinished?: boolean;
  /** Tokens the run's LLM stages used (every process that ran it), when any reported usage. */
  usage?: TokenUsage;
}

/** Thrown before a run starts when a node has no handler. Code `ORCH_NO_HANDLER` (or `ORCH_NO_BACKEND` for LLM stages). */
export class MissingHandlerError extends OrchestraError {
  constructor(code: 'ORCH_NO_HANDLER' | 'ORCH_NO_BACKEND', message: string) {
    super(code, message);
    this.name = 'MissingHandlerError';
  }
}

/** Handlers and roles a run needs, resolved once before the first node. */
export interface Plan {
  graph: Graph;
  startNode: string;
  exitNodes: ReadonlySet<string>;
  goalGates: string[];
  handlers: Map<string, { type: string; handler: Handler }>;
  /** Where parallel branches stop: fan-in and exit nodes. */
  branchBoundaries: ReadonlySet<string>;
}

function registryFor(options: RunOptions): HandlerRegistry {
  if (!options.registry) {
    return createDefaultRegistry({ ...(options.backend ? { backend: options.backend } : {}), ...(options.interviewer ? { interviewer: options.interviewer } : {}) });
  }
  if (!options.backend || options.registry.get('codergen')) return options.registry;
  return options.registry.clone().register('codergen', createLlmHandler(options.backend, options.interviewer ?? new AutoApproveInterviewer()));
}

/** Validates the graph and resolves a handler for every node, refusing what cannot run. */
function planRun(graph: Graph, registry: HandlerRegistry): Plan {
  validateOrRaise(graph, { knownHandlerTypes: registry.types() });
  const startNode = (findStartNodes(graph)[0] as GraphNode).id;
  const exitNodes = new Set(findExitNodes(graph).map((n) => n.id));
  const handlers = new Map<string, { type: string; handler: Handler }>();
  const missingLlm: string[] = [];
  for (const node of graph.nodes.values()) {
    const role = node.id === startNode ? 'start' : exitNodes.has(node.id) ? 'exit' : undefined;
    const roleHandler = role ? registry.get(role) : undefined;
    const resolved = role && roleHandler ? { type: role, handler: roleHandler } : registry.resolve(node);
    if (resolved) {
      const refusal = resolved.handler.cannotRun?.(node, graph);
      if (refusal !== undefined) throw new MissingHandlerError(resolved.type === 'codergen' ? 'ORCH_NO_BACKEND' : 'ORCH_NO_HANDLER', refusal);
      handlers.set(node.id, resolved);
      continue;
    }
    const type = resolveHandlerType(node);
    if (type === 'codergen') missingLlm.push(node.id);
    else throw new MissingHandlerError('ORCH_NO_HANDLER', `node ${node.id} has handler type ${JSON.stringify(type)}, which no registered handler runs`);
  }
  if (missingLlm.length > 0) {
    throw new MissingHandlerError(
      'ORCH_NO_BACKEND',
      `this pipeline has LLM stages (${missingLlm.slice(0, 5).join(', ')}${missingLlm.length > 5 ? ', ...' : ''}) but no backend runs them: pass a CodergenBackend to runPipeline (createModelBackend or createChatBackend from @orchestra/llm, or simulationBackend)`,
    );
  }
  const goalGates = [...graph.nodes.values()].filter((n) => booleanAttr(n, 'goal_gate')).map((n) => n.id);
  const branchBoundaries = new Set([...exitNodes, ...[...handlers].filter(([, h]) => h.type === 'parallel.fan_in').map(([id]) => id)]);
  return { graph, startNode, exitNodes, goalGates, handlers, branchBoundaries };
}

interface Session {
  plan: Plan;
  options: RunOptions;
  logsRoot: string;
  context: RunContext;
  state: EngineState;
  events: EventBus;
  recorder: RunRecorder;
  started: number;
}

/** A run that ended on a `loop_restart` edge: where the next run starts. */
export interface Restart {
  restartAt: string;
  logsRoot: string;
  from: string;
}

function openEvents(options: RunOptions): { events: EventBus; release: () => void } {
  const events = options.events ?? new EventBus();
  const off = options.onEvent ? events.on(options.onEvent) : () => {};
  return {
    events,
    release: () => {
      off();
      if (!options.events) events.close();
    },
  };
}

function freshContext(graph: Graph, initial: Record<string, unknown> | undefined): RunContext {
  const context = new RunContext(initial);
  context.set('graph.goal', graph.attributes.goal ?? '');
  context.takeChanges();
  return context;
}

/**
 * Runs a validated pipeline graph (spec §3) and resolves when it ends. Writes
 * the run directory as it goes; see docs/run-directory.md. Throws before the
 * first node when the graph has errors or a node has no handler; afterwards
 * a failing stage fails the run, it never throws.
 */
export async function runPipeline(graph: Graph, options: RunOptions = {}): Promise<RunResult> {
  const plan = planRun(graph, registryFor(options));
  const { events, release } = openEvents(options);
  try {
    const logsRoot = options.logsRoot ?? defaultLogsRoot(graph.name, options.workdir);
    return await followRestarts(plan, options, events, await startRun(plan, options, events, logsRoot, plan.startNode, null));
  } finally {
    release();
  }
}

/** A run's id: its directory's name. */
function runIdOf(logsRoot: string): string {
  return logsRoot.split(/[\\/]/).pop() ?? logsRoot;
}

/** Starts the runs that `loop_restart` edges ask for until one ends for good. */
async function followRestarts(plan: Plan, options: RunOptions, events: EventBus, first: RunResult | Restart): Promise<RunResult> {
  let ended = first;
  while ('restartAt' in ended) ended = await startRun(plan, options, events, ended.logsRoot, ended.restartAt, ended.from);
  return ended;
}

/** Creates a run directory and drives a fresh run in it from `startAt`. */
async function startRun(plan: Plan, options: RunOptions, events: EventBus, logsRoot: string, startAt: string, restartedFrom: string | null): Promise<RunResult | Restart> {
  const { graph } = plan;
  const manifest: Manifest = {
    format: 'orchestra.run/1',
    run_id: runIdOf(logsRoot),
    pipeline: graph.name,
    goal: graph.attributes.goal ?? '',
    source_file: options.sourceFile ?? null,
    started_at: new Date().toISOString(),
    orchestra_version: ORCHESTRA_VERSION,
    start_node: startAt,
    restarted_from: restartedFrom,
    initial_context: (options.initialContext ?? {}) as Record<string, unknown>,
  };
  const context = freshContext(graph, options.initialContext); // a bad value throws before anything is written
  createRunDirectory(logsRoot, manifest, options.source);
  const state = initialState(startAt);
  const recorder = new RunRecorder(logsRoot, events, options.checkpointIntervalMs, options.syncEveryNode);
  try {
    recorder.checkpoint(state, context, true);
    events.emit({ type: 'pipeline.started', pipeline: graph.name, logsRoot, resumed: false, startNode: startAt });
    return await drive({ plan, options, logsRoot, context, state, events, recorder, started: performance.now() });
  } finally {
    recorder.close();
  }
}

/** The result of a session in its current state. */
function resultOf(session: Session, status: RunResult['status']): RunResult {
  const { state } = session;
  return {
    status,
    completedNodes: [...state.completedNodes],
    context: session.context.snapshot(),
    logsRoot: session.logsRoot,
    ...(state.failureReason ? { failureReason: state.failureReason } : {}),
    retries: state.totalRetries,
    durationMs: performance.now() - session.started,
    ...(state.usage ? { usage: state.usage } : {}),
  };
}

function finish(session: Session, status: 'completed' | 'failed', failureReason: string | null, lastNode?: string): RunResult {
  const { state, events } = session;
  state.status = status;
  state.nextNode = null;
  state.failureReason = failureReason;
  session.recorder.checkpoint(state, session.context, true);
  if (lastNode !== undefined) events.emit({ type: 'checkpoint.saved', nodeId: lastNode, completedNodes: state.completedNodes.length, file: true });
  const durationMs = performance.now() - session.started;
  const nodesRun = state.completedNodes.length;
  const usage = state.usage ? { usage: state.usage } : {};
  if (status === 'completed') {
    events.emit({ type: 'pipeline.completed', status: 'success', durationMs, nodesRun, retries: state.totalRetries, ...usage });
    return resultOf(session, 'success');
  }
  events.emit({ type: 'pipeline.failed', failureReason: failureReason ?? 'failed', durationMs, nodesRun, retries: state.totalRetries, ...usage });
  return resultOf(session, 'fail');
}

function interrupt(session: Session, reason: string): RunResult {
  const { state } = session;
  state.status = 'interrupted';
  session.recorder.checkpoint(state, session.context, true);
  session.events.emit({ type: 'pipeline.interrupted', reason, durationMs: performance.now() - session.started, lastNode: state.currentNode });
  return resultOf(session, 'interrupted');
}

/** Parks the run at a question nobody can answer now (spec-free: orchestra's durable waits). */
function park(session: Session, request: AnswerLater): RunResult {
  const { state } = session;
  writePendingQuestions(session.logsRoot, request.questions);
  state.status = 'parked';
  session.recorder.checkpoint(state, session.context, true);
  session.events.emit({ type: 'pipeline.parked', nodeId: request.question.stage, questionText: request.question.text, durationMs: performance.now() - session.started });
  return resultOf(session, 'parked');
}

function abortReason(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  if (typeof reason === 'string') return reason;
  if (reason instanceof Error && reason.name !== 'AbortError') return reason.message;
  return 'cancelled';
}

/** The next run directory for a `loop_restart`: `<dir>-restart-1`, then `-restart-2`, ... */
function restartDirectory(logsRoot: string): string {
  const match = /^(.*)-restart-(\d+)$/.exec(logsRoot);
  return match ? `${match[1]}-restart-${Number(match[2]) + 1}` : `${logsRoot}-restart-1`;
}

/**
 * Where the run goes when it reaches the exit (or a dead end): nowhere if
 * every visited goal gate succeeded; else the gate's retry target (node, then
 * graph level, spec §3.4); else it fails.
 */
function checkGoalGates(session: Session): { jumpTo?: string; failure?: string } {
  const { plan, state, events } = session;
  const gate = unsatisfiedGoalGate(plan.goalGates, state);
  if (gate === undefined) return {};
  const target = retryTarget(plan.graph, plan.graph.nodes.get(gate), true);
  events.emit({ type: 'goal_gate.unsatisfied', nodeId: gate, retryTarget: target ?? null });
  return target === undefined ? { failure: `goal gate ${gate} is unsatisfied and there is no retry target` } : { jumpTo: target };
}

/** In-node progress kept in the session's state and written to the checkpoint at once. */
function progressStore(session: Session): ProgressStore {
  const { state } = session;
  return {
    get: (nodeId) => (nodeId in state.nodeProgress ? structuredClone(state.nodeProgress[nodeId]) : undefined),
    save: (nodeId, data) => {
      if (data === undefined) delete state.nodeProgress[nodeId];
      else state.nodeProgress[nodeId] = toJsonValue(nodeId, data, `the progress saved by node ${JSON.stringify(nodeId)}`);
      session.recorder.checkpoint(state, session.context, true);
      session.events.emit({ type: 'checkpoint.saved', nodeId, completedNodes: state.completedNodes.length, file: true });
    },
    discard: (nodeId) => {
      delete state.nodeProgress[nodeId];
    },
  };
}

/** The engine loop (spec §3.2), from `state.nextNode` until the run ends, is interrupted or restarts. */
async function drive(session: Session): Promise<RunResult | Restart> {
  const { plan, options, context, state, events, recorder } = session;
  const { graph } = plan;
  const signal = options.signal ?? new AbortController().signal;
  const run: RunView = {
    id: runIdOf(session.logsRoot),
    logsRoot: session.logsRoot,
    completedNodes: state.completedNodes,
    nodeOutcomes: state.nodeOutcomes,
    resumedAfter: state.completedNodes.length,
  };
  const base = {
    graph,
    handlers: plan.handlers,
    logsRoot: session.logsRoot,
    recorder,
    events,
    random: options.random ?? Math.random,
    workdir: options.workdir ?? process.cwd(),
    progress: progressStore(session),
    run,
  };
  const env: StepEnvironment = { ...base, signal, runBranch: createBranchRunner(base, plan.branchBoundaries) };
  // The edge taken before a stop is not recorded: a resumed run takes the first edge between the two nodes.
  const resumedEdge = state.currentNode === null ? undefined : graph.edges.find((e) => e.from === state.currentNode && e.to === state.nextNode);
  let arrival: Arrival = resumedEdge ? { from: state.currentNode, edge: resumedEdge } : { from: state.currentNode };

  while (state.nextNode !== null) {
    if (signal.aborted) return interrupt(session, abortReason(signal));
    const node = graph.nodes.get(state.nextNode);
    if (!node) return finish(session, 'failed', `node ${state.nextNode} does not exist`);
    const isExit = plan.exitNodes.has(node.id);

    if (isExit) {
      const gates = checkGoalGates(session);
      if (gates.failure) return finish(session, 'failed', gates.failure);
      if (gates.jumpTo) {
        state.nextNode = gates.jumpTo;
        arrival = { from: state.currentNode };
        continue;
      }
    }

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
    const { outcome, retries } = step;
    const failed = outcome.status === 'fail';
    let next: string | null = null;
    let end: JournalEntry['end'];
    let failureReason: string | undefined;
    let restartTo: string | undefined;
    if (isExit) {
      end = failed ? 'failed' : 'completed';
      if (failed) failureReason = `exit node ${node.id} failed: ${outcome.failureReason ?? 'no reason given'}`;
    } else if (step.next) {
      next = step.next.to;
      if (step.next.loopRestart) {
        end = 'restarted';
        restartTo = restartDirectory(session.logsRoot);
      }
    } else if (failed) {
      end = 'failed';
      failureReason = `${node.id} failed: ${outcome.failureReason ?? 'no reason given'}`;
    } else {
      // A dead end (no eligible edge) ends the run like the exit would: goal gates first.
      const gates = checkGoalGates(session);
      if (gates.jumpTo) next = gates.jumpTo;
      else {
        end = gates.failure ? 'failed' : 'completed';
        if (gates.failure) failureReason = gates.failure;
      }
    }

    const logs = context.takeNewLogs();
    const entry: JournalEntry = {
      seq: state.seq + 1,
      node: node.id,
      status: outcome.status,
      retries,
      context: context.takeChanges(),
      next,
      ...(end ? { end } : {}),
      ...(failureReason ? { failure_reason: failureReason } : {}),
      ...(logs.length ? { logs } : {}),
      ...(restartTo ? { restarted_to: restartTo } : {}),
      ...(outcome.usage ? { usage: usageToFile(outcome.usage) } : {}),
    };
    recorder.appendJournal(entry);
    applyEntry(state, entry);
    arrival = step.next?.edge ? { from: node.id, edge: step.next.edge } : { from: node.id };

    if (restartTo !== undefined && next !== null) {
      recorder.checkpoint(state, context, true);
      events.emit({ type: 'checkpoint.saved', nodeId: node.id, completedNodes: state.completedNodes.length, file: true });
      events.emit({ type: 'pipeline.restarted', from: node.id, to: next, logsRoot: restartTo });
      return { restartAt: next, logsRoot: restartTo, from: session.logsRoot };
    }
    if (end === 'completed' || end === 'failed') return finish(session, end, failureReason ?? null, node.id);
    const file = recorder.checkpoint(state, context);
    events.emit({ type: 'checkpoint.saved', nodeId: node.id, completedNodes: state.completedNodes.length, file });
  }
  return finish(session, 'completed', null);
}

/**
 * Starts the run a `loop_restart` asked for when its directory was never
 * created (the process died in between); used by resume.
 */
export async function startRestartedRun(plan: Plan, options: RunOptions, restart: Restart): Promise<RunResult> {
  const { events, release } = openEvents(options);
  try {
    return await followRestarts(plan, options, events, restart);
  } finally {
    release();
  }
}

/** Continues a session restored from disk (see resume-pipeline.ts), following `loop_restart`s. */
export async function continueSession(session: Omit<Session, 'events' | 'recorder' | 'started'>): Promise<RunResult> {
  const { events, release } = openEvents(session.options);
  try {
    const recorder = new RunRecorder(session.logsRoot, events, session.options.checkpointIntervalMs, session.options.syncEveryNode);
    let ended: RunResult | Restart;
    try {
      session.state.status = 'running';
      if (readPendingQuestions(session.logsRoot).length > 0) writePendingQuestions(session.logsRoot, []);
      recorder.checkpoint(session.state, session.context, true);
      events.emit({ type: 'pipeline.started', pipeline: session.plan.graph.name, logsRoot: session.logsRoot, resumed: true, startNode: session.state.nextNode ?? '' });
      ended = await drive({ ...session, events, recorder, started: performance.now() });
    } finally {
      recorder.close();
    }
    return await followRestarts(session.plan, session.options, events, ended);
  } finally {
    release();
  }
}

export { planRun, registryFor };
