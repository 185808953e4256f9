import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { PreparedRun } from '../runs/run-launcher.js';
import { QUEUED_MESSAGES_HEADER } from './conversation-turns.js';
import { followRun } from './run-follower.js';
import { askApproval } from './run-approval.js';
import type { SessionContext } from './session-context.js';

/** How a `launch_run` call ended: the run ran, it was refused (bad parameters, a run already active, a failed start), or the person cancelled the proposal. */
export type DelegationEnd = 'ran' | 'refused' | 'cancelled';

/** The tool call's answer, for the agent. */
function answer(ctx: SessionContext, callId: string, content: string): void {
  ctx.data.transcript.push(new ToolMessage({ tool_call_id: callId, content }));
}

/**
 * `launch_run`'s parameters with the project's context paths added: every
 * run gets them. Parameters that are not an object, or whose `context_paths`
 * is not a list, are passed on as they are, for the launcher to refuse.
 */
function withProjectPaths(ctx: SessionContext, args: unknown): unknown {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return args;
  const given = (args as { context_paths?: unknown }).context_paths;
  if (given !== undefined && !Array.isArray(given)) return args;
  const paths = [...new Set([...ctx.workspace.contextPaths(), ...((given as unknown[] | undefined) ?? [])])];
  return { ...args, ...(paths.length ? { context_paths: paths } : {}) };
}

/**
 * One `launch_run` call of the agent: prepare the run, propose it (and, when
 * approval is required, ask the person), start it, follow it to its end and
 * give its result to the agent as the call's answer. Moves the session
 * along launch → approve → complete / fail / cancel_run (or cancel, for a
 * proposal turned down), and tells `run` events of the proposal, start and
 * end. An edit the person asks for instead goes first in the queue.
 */
export async function delegateRun(ctx: SessionContext, callId: string, args: unknown): Promise<DelegationEnd> {
  const { machine } = ctx;
  let prepared: PreparedRun;
  try {
    prepared = ctx.runs.prepare(withProjectPaths(ctx, args));
  } catch (error) {
    // If the proposal was being asked again after a resume, it is settled: refused.
    if (machine.state === 'AWAITING_APPROVAL') machine.fire('cancel');
    answer(ctx, callId, error instanceof Error ? error.message : String(error));
    return 'refused';
  }
  // AWAITING_APPROVAL: a resumed session asks again for the proposal it was killed at.
  if (machine.state !== 'CHATTING' && machine.state !== 'AWAITING_APPROVAL') {
    answer(ctx, callId, 'launch_run refused: one run per message; report on the run that ended first');
    return 'refused';
  }
  if (machine.state === 'CHATTING') machine.fire('launch');
  ctx.events.emit('run', { phase: 'proposed', prepared });
  if (ctx.requireApproval) {
    const decision = await askApproval(ctx.interviewer, prepared);
    if (decision !== 'approve') {
      answer(ctx, callId, decision === 'cancel' ? 'The person cancelled this run. Nothing was launched.' : `The person wants changes before launching: ${decision.edit}`);
      machine.fire('cancel');
      if (typeof decision === 'object') ctx.data.queue.unshift(decision.edit);
      return 'cancelled';
    }
  }
  let id: string;
  try {
    id = await ctx.runs.start(prepared);
  } catch (error) {
    // Approved but refused at the start: the agent hears why and the run never started.
    machine.fire('approve');
    answer(ctx, callId, `launch_run failed before the run started: ${error instanceof Error ? error.message : String(error)}`);
    machine.fire('fail');
    return 'refused';
  }
  ctx.data.runs.push(id);
  ctx.data.active = { run: id, call_id: callId };
  machine.fire('approve');
  ctx.events.emit('run', { phase: 'started', id, prepared });
  await finishRun(ctx, callId, id);
  return 'ran';
}

/**
 * Waits for the active run `id` (asking its questions), then hands its
 * result to the agent as the answer to `callId`, with the messages the
 * person sent meanwhile. Does nothing more once the session is detached.
 */
export async function finishRun(ctx: SessionContext, callId: string, id: string): Promise<void> {
  const { result, unanswered } = await followRun(ctx.runs, ctx.interviewer, id);
  if (ctx.detached) return;
  ctx.data.active = null;
  answer(ctx, callId, JSON.stringify(result));
  ctx.events.emit('run', { phase: 'ended', id, result });
  const cancelled = ctx.cancelRequested || unanswered || result.status === 'cancelled';
  ctx.cancelRequested = false;
  ctx.machine.fire(cancelled ? 'cancel_run' : result.status === 'completed' ? 'complete' : 'fail');
  // Messages that came in during the run go to the agent with the result.
  if (ctx.data.queue.length > 0) {
    ctx.data.transcript.push(new HumanMessage(`${QUEUED_MESSAGES_HEADER}\n${ctx.data.queue.join('\n')}`));
    ctx.data.queue = [];
  }
}
