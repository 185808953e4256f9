import pTimeout, { TimeoutError } from 'p-timeout';
import type { Graph, GraphNode } from '../graph/model.js';
import { booleanAttr, durationAttr } from '../graph/values.js';
import { AnswerLater } from './answer-later.js';
import { sleepOn, type Clock } from './clock.js';
import type { EventBus } from './event-bus.js';
import type { Arrival, BranchRunner, ChildRuns, Handler, HandlerInput, ProcessLedger, RunView } from './handler.js';
import type { ProgressStore } from './node-progress.js';
import { AUTO_STATUS_NOTES, OutcomeSchema, STATUS_FILE, isSuccess, parseStatusFile, type Outcome } from './outcome.js';
import { withStageDir } from './store/lazy-stage-dir.js';
import { noSpaceIn } from './store/store-errors.js';
import type { StageStore } from './store/run-store.js';
import { MAX_RETRY_AFTER_MS, delayForAttempt, retryAfterOf, type RetryPolicy } from './retry-policy.js';
import { TokenUsageSchema, addUsage, type TokenUsage } from './usage.js';
import type { RunContext } from './run-context.js';

/** Longest the engine waits for a timed-out handler to stop before moving on. */
export const SETTLE_AFTER_TIMEOUT_MS = 3_000;

const noop = (): void => {};

/** Thrown out of {@link executeNode} when the run was cancelled mid-node. */
export class Interrupted extends Error {
  constructor() {
    super('interrupted');
    this.name = 'Interrupted';
  }
}

/** Everything {@link executeNode} needs besides the node. */
export interface ExecuteNodeOptions {
  graph: Graph;
  handler: Handler;
  handlerType: string;
  context: RunContext;
  /** Where the run is kept. */
  logsRoot: string;
  /** The node's stage. */
  stage: StageStore;
  workdir: string;
  processes: ProcessLedger;
  children: ChildRuns;
  clock: Clock;
  policy: RetryPolicy;
  /** The run's signal: aborting it interrupts the node. */
  signal: AbortSignal;
  events: EventBus;
  /** Index of this node in the run (0-based), for events. */
  index: number;
  random: () => number;
  runBranch: BranchRunner;
  progress: ProgressStore;
  run: RunView;
  arrival: Arrival;
}

/** The final outcome of a node and how many retries it took. */
export interface NodeResult {
  outcome: Outcome;
  retries: number;
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/**
 * The outcome when a handler returned nothing: the `status.json` it (or a
 * program it started) wrote in the stage dir — stale ones are removed before
 * each attempt; an unreadable one is a FAIL naming the problem (see
 * {@link parseStatusFile}) — else auto_status (spec Appendix C), else FAIL.
 */
async function outcomeFromStatusFile(node: GraphNode, stage: StageStore): Promise<Outcome> {
  const text = await stage.read(STATUS_FILE);
  if (text !== undefined) {
    const parsed = parseStatusFile(text);
    return parsed.ok ? parsed.outcome : { status: 'fail', failureReason: parsed.failureReason };
  }
  if (booleanAttr(node, 'auto_status')) return { status: 'success', notes: AUTO_STATUS_NOTES };
  return { status: 'fail', failureReason: 'the handler returned no outcome and wrote no status.json' };
}

/** Runs one attempt, with the node's timeout; a timeout aborts the handler's signal. */
async function attemptOnce(node: GraphNode, options: ExecuteNodeOptions, attempt: number): Promise<Outcome> {
  // A status.json from an earlier visit or attempt must not pass for this attempt's.
  const { stage, clock } = options;
  if (stage.reused || attempt > 1) await stage.remove(STATUS_FILE);
  const timeoutMs = durationAttr(node, 'timeout');
  const controller = timeoutMs === undefined ? undefined : new AbortController();
  const signal = controller ? AbortSignal.any([options.signal, controller.signal]) : options.signal;
  const input: HandlerInput = withStageDir<Omit<HandlerInput, 'stageDir'>>({
    node,
    graph: options.graph,
    context: options.context,
    logsRoot: options.logsRoot,
    stage,
    processes: options.processes,
    children: options.children,
    workdir: options.workdir,
    signal,
    attempt,
    runBranch: options.runBranch,
    emit: (event) => void options.events.emit(event),
    progress: options.progress.get(node.id),
    saveProgress: (data) => options.progress.save(node.id, data),
    run: options.run,
    arrival: options.arrival,
  });
  const work = Promise.resolve().then(() => options.handler.execute(input));
  let result: Outcome | undefined;
  try {
    result =
      timeoutMs === undefined
        ? await work
        : await pTimeout(work, {
            milliseconds: timeoutMs,
            message: `timed out after ${node.attributes.timeout}`,
            customTimers: {
              setTimeout: ((fn: () => void, ms: number) => clock.setTimeout(fn, ms)) as unknown as typeof globalThis.setTimeout,
              clearTimeout: ((handle: unknown) => clock.clearTimeout(handle)) as typeof globalThis.clearTimeout,
            },
          });
  } catch (error) {
    if (error instanceof TimeoutError) {
      controller?.abort(error);
      // Let the stopped work wind down (a killed tool writes its logs) before a retry starts.
      await Promise.race([work.then(noop, noop), sleepOn(clock, SETTLE_AFTER_TIMEOUT_MS)]);
    }
    throw error;
  }
  if (result === undefined) return outcomeFromStatusFile(node, stage);
  const checked = OutcomeSchema.safeParse(result);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return { status: 'fail', failureReason: `handler returned an invalid outcome${issue?.path.length ? ` (${issue.path.join('.')})` : ''}: ${issue?.message}` };
  }
  return result;
}

/**
 * Executes a node with its retry policy (spec §3.5): RETRY and FAIL outcomes
 * (unless marked `retryable: false`) and transient errors are retried while
 * attempts remain, with backoff; a
 * non-transient error is a FAIL at once; when retries run out, RETRY becomes
 * PARTIAL_SUCCESS with `allow_partial=true`, else FAIL. Throws
 * {@link Interrupted} when the run's signal aborts.
 */
export async function executeNode(node: GraphNode, options: ExecuteNodeOptions): Promise<NodeResult> {
  const { policy, events, index } = options;
  const label = node.attributes.label || node.id;
  let usage: TokenUsage | undefined; // every attempt's tokens count: they were spent
  for (let attempt = 1; ; attempt++) {
    const started = performance.now();
    events.emit({ type: 'stage.started', nodeId: node.id, label, handlerType: options.handlerType, index, attempt });
    let outcome: Outcome;
    let retryable: boolean;
    let retryAfterMs: number | undefined;
    try {
      outcome = await attemptOnce(node, options, attempt);
      retryable = !isSuccess(outcome.status) && outcome.status !== 'skipped' && outcome.retryable !== false;
    } catch (error) {
      if (options.signal.aborted) throw new Interrupted();
      if (error instanceof AnswerLater) throw error; // the run parks; the node has not run
      // A full disk (a tool's output, a stage file) stops the run, resumable: it is not the node's outcome.
      const full = noSpaceIn(error);
      if (full) throw full;
      outcome = { status: 'fail', failureReason: describe(error) };
      const spent = TokenUsageSchema.safeParse((error as { usage?: unknown } | null)?.usage); // tokens used before the error
      if (spent.success) outcome.usage = spent.data;
      retryable = policy.shouldRetry(error);
      retryAfterMs = retryAfterOf(error);
      if (retryable && retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_MS) {
        retryable = false;
        outcome.failureReason = `${outcome.failureReason} (the provider asks to wait ${Math.round(retryAfterMs / 1000)} s before retrying, longer than orchestra waits; not retried)`;
      }
    }
    usage = addUsage(usage, outcome.usage);
    if (usage) outcome = { ...outcome, usage };
    if (options.signal.aborted) throw new Interrupted();
    const durationMs = performance.now() - started;
    const retries = attempt - 1;
    const settle = (final: Outcome): NodeResult => {
      if (final.status === 'fail') {
        events.emit({ type: 'stage.failed', nodeId: node.id, index, failureReason: final.failureReason ?? 'failed', willRetry: false, durationMs, ...(usage ? { usage } : {}) });
      } else {
        events.emit({ type: 'stage.completed', nodeId: node.id, index, status: final.status, durationMs, ...(final.notes ? { notes: final.notes } : {}), ...(usage ? { usage } : {}), ...(final.phases ? { phases: final.phases } : {}) });
      }
      return { outcome: final, retries };
    };
    if (!retryable) return settle(outcome);
    if (attempt < policy.maxAttempts) {
      // A provider's Retry-After is a floor: retrying sooner would only be refused again.
      const delayMs = Math.max(delayForAttempt(attempt, policy.backoff, options.random), retryAfterMs ?? 0);
      events.emit({ type: 'stage.failed', nodeId: node.id, index, failureReason: outcome.failureReason ?? outcome.status, willRetry: true, durationMs });
      events.emit({ type: 'stage.retrying', nodeId: node.id, index, attempt: attempt + 1, delayMs });
      try {
        await sleepOn(options.clock, delayMs, options.signal);
      } catch {
        throw new Interrupted();
      }
      continue;
    }
    if (outcome.status !== 'retry') return settle(outcome);
    return settle(
      booleanAttr(node, 'allow_partial')
        ? { ...outcome, status: 'partial_success', notes: 'retries exhausted, partial accepted' }
        : { ...outcome, status: 'fail', failureReason: outcome.failureReason ?? 'max retries exceeded' },
    );
  }
}
