import type { AnswerLater } from './answer-later.js';
import type { Clock } from './clock.js';
import type { EngineState } from './engine-state.js';
import type { EventBus } from './event-bus.js';
import type { Plan } from './plan.js';
import type { RunContext } from './run-context.js';
import type { EngineOptions } from './engine-options.js';
import type { RunRecorder } from './run-recorder.js';
import type { RunResult } from './run-result.js';
import { writePendingQuestions } from './store/pending-questions.js';
import type { RunStore } from './store/run-store.js';

/** One process driving one run: what the loop and the ways a run stops share. */
export interface Session {
  plan: Plan;
  options: EngineOptions;
  store: RunStore;
  context: RunContext;
  state: EngineState;
  events: EventBus;
  recorder: RunRecorder;
  clock: Clock;
  started: number;
}

/** The result of a session in its current state. */
export function resultOf(session: Session, status: RunResult['status']): RunResult {
  const { state } = session;
  return {
    status,
    completedNodes: [...state.completedNodes],
    context: session.context.snapshot(),
    logsRoot: session.store.location,
    ...(state.failureReason ? { failureReason: state.failureReason } : {}),
    retries: state.totalRetries,
    durationMs: performance.now() - session.started,
    ...(state.usage ? { usage: state.usage } : {}),
  };
}

export async function finish(session: Session, status: 'completed' | 'failed', failureReason: string | null, lastNode?: string): Promise<RunResult> {
  const { state, events } = session;
  state.status = status;
  state.nextNode = null;
  state.failureReason = failureReason;
  await session.recorder.checkpoint(state, session.context, true);
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

export async function interrupt(session: Session, reason: string): Promise<RunResult> {
  const { state } = session;
  state.status = 'interrupted';
  await session.recorder.checkpoint(state, session.context, true);
  session.events.emit({ type: 'pipeline.interrupted', reason, durationMs: performance.now() - session.started, lastNode: state.currentNode });
  return resultOf(session, 'interrupted');
}

/** Parks the run at a question nobody can answer now (orchestra's durable waits). */
export async function park(session: Session, request: AnswerLater): Promise<RunResult> {
  const { state } = session;
  await writePendingQuestions(session.store, request.questions);
  state.status = 'parked';
  await session.recorder.checkpoint(state, session.context, true);
  const reason = request.reason ? { reason: request.reason } : {};
  session.events.emit({ type: 'pipeline.parked', nodeId: request.question.stage, questionText: request.question.text, durationMs: performance.now() - session.started, ...reason });
  return { ...resultOf(session, 'parked'), ...(request.reason ? { parkedReason: request.reason } : {}) };
}

export function abortReason(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  if (typeof reason === 'string') return reason;
  if (reason instanceof Error && reason.name !== 'AbortError') return reason.message;
  return 'cancelled';
}

