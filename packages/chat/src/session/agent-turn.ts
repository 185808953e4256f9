import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { CUT_OFF_CALL_RESULT, callModel, stoppedAtTokenLimit } from '@orchestra/llm/agent';
import { textOf } from './conversation-turns.js';
import type { SessionContext } from './session-context.js';
import type { SessionMachine } from './session-machine.js';
import { sessionPrompt } from './session-prompt.js';
import type { SessionModel } from './session-tools.js';
import { answerToolCall } from './tool-calls.js';

/** Most model calls in one turn (a turn that keeps calling tools is cut off). */
export const MAX_CALLS_PER_TURN = 8;

/** The session agent: its model (tools bound) and the identity its prompt gives it. */
export interface SessionAgent {
  model: SessionModel;
  identity?: string;
}

/** The turn is over: the session goes back to IDLE (a reply to a message, or a run's summary). */
function endTurn(machine: SessionMachine): void {
  if (machine.state === 'CHATTING') machine.fire('reply');
  else if (machine.state.startsWith('PROCESSING')) machine.fire('summarized');
}

/** One model call on the prompt and the transcript, its text streamed as `delta` events and its tokens counted; `cutOff`: it stopped at the output token limit. */
async function callAgent(ctx: SessionContext, agent: SessionAgent): Promise<{ message: AIMessage; cutOff: boolean }> {
  // Streamed (the agent's text reaches the terminal as it comes); `invoke` would estimate tokens with tables it downloads.
  const reply = await callModel(agent.model, [sessionPrompt(ctx.workspace, agent.identity), ...ctx.data.transcript], {
    signal: new AbortController().signal,
    modelName: 'session',
    report: { delta: (text) => void ctx.events.emit('delta', text), response: () => {}, toolCall: () => {} },
  });
  if (reply.usage) {
    ctx.data.usage.input_tokens += reply.usage.inputTokens;
    ctx.data.usage.output_tokens += reply.usage.outputTokens;
    ctx.data.usage.total_tokens += reply.usage.totalTokens;
  }
  return { message: new AIMessage({ content: reply.message.content, tool_calls: reply.message.tool_calls ?? [] }), cutOff: stoppedAtTokenLimit(reply.message) };
}

/** Calls the agent until it answers without a tool call (or a cancelled proposal ends the turn). */
async function loop(ctx: SessionContext, agent: SessionAgent, reaskPending: boolean): Promise<void> {
  const { data } = ctx;
  for (let calls = 0; calls < MAX_CALLS_PER_TURN; calls += 1) {
    let message: AIMessage;
    let cutOff = false;
    const last = data.transcript[data.transcript.length - 1];
    if (reaskPending && last instanceof AIMessage && last.tool_calls?.length) {
      message = last;
      reaskPending = false;
    } else {
      if (ctx.detached) return;
      ({ message, cutOff } = await callAgent(ctx, agent));
      data.transcript.push(message);
    }
    const toolCalls = message.tool_calls ?? [];
    if (toolCalls.length === 0) {
      const text = textOf(message);
      if (text) ctx.events.emit('agent', text);
      endTurn(ctx.machine);
      return;
    }
    if (textOf(message)) ctx.events.emit('agent', textOf(message));
    for (const [index, call] of toolCalls.entries()) {
      // At the token limit the last call's arguments may be cut off (their JSON completed where it stopped): not run.
      if (cutOff && index === toolCalls.length - 1) {
        data.transcript.push(new ToolMessage({ tool_call_id: call.id ?? `call_${data.transcript.length}`, content: CUT_OFF_CALL_RESULT }));
        continue;
      }
      const end = await answerToolCall(ctx, call, call.id ?? `call_${data.transcript.length}`);
      if (end === 'detached') return;
      if (end === 'cancelled') {
        // Every call of the message needs an answer before the conversation goes on.
        for (const rest of toolCalls.slice(index + 1)) data.transcript.push(new ToolMessage({ tool_call_id: rest.id ?? '', content: 'not run: the launch before it was cancelled' }));
        ctx.save();
        return;
      }
    }
    ctx.save();
  }
  ctx.events.emit('agent', '(the agent kept calling tools; the turn was stopped)');
  endTurn(ctx.machine);
}

/**
 * The agent's turn: calls the model, runs the tool calls of its reply, and
 * calls it again until it answers without a tool call (at most
 * {@link MAX_CALLS_PER_TURN} calls); the session is then back in IDLE.
 * `reaskPending` (a session resumed at AWAITING_APPROVAL) first runs again
 * the tool calls of the transcript's last message, which were never
 * answered, without calling the model. When a model call fails (a refused
 * key, a lost connection) the turn ends without a reply: the session goes
 * back to IDLE along legal transitions, the conversation so far is kept,
 * and a `failure` event says why.
 */
export async function agentTurn(ctx: SessionContext, agent: SessionAgent, reaskPending = false): Promise<void> {
  try {
    await loop(ctx, agent, reaskPending);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const { machine } = ctx;
    if (machine.state === 'AWAITING_APPROVAL') machine.fire('cancel');
    if (machine.state === 'RUNNING') {
      ctx.data.active = null;
      machine.fire('fail');
    }
    endTurn(machine);
    ctx.events.emit('failure', message);
  }
}
