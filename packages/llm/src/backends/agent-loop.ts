import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { LlmReporter, TokenUsage } from '@orchestra/core';
import type { ToolCallStatus } from '@orchestra/core/handlers';
import { OrchestraError } from '@orchestra/core';
import { addUsage } from '@orchestra/core/store';
import type { LlmErrorCode } from '../errors/llm-error-codes.js';
import type { PendingToolCall, ToolCallGuard } from '../tools/tool-call-guard.js';
import { callModel, type ChatRunnable } from './call-model.js';
import { CUT_OFF_CALL_RESULT, stoppedAtTokenLimit } from './token-limit.js';
import type { ModelPrice } from '../config/prices.js';

/** The per-stage tool call log, in the stage directory: one JSON line per call. */
export const TOOL_CALLS_FILE = 'tool-calls.jsonl';

/** Most characters of a tool result kept in the tool call log. */
const LOGGED_RESULT_CHARS = 4000;

/** Thrown when an agent stage uses its turns without giving a final answer. Code `ORCH_AGENT_TURNS`; not retryable. */
export class AgentTurnLimitError extends OrchestraError<Extract<LlmErrorCode, 'ORCH_AGENT_TURNS'>> {
  readonly retryable = false;
  constructor(nodeId: string, maxTurns: number) {
    super('ORCH_AGENT_TURNS', `agent stage ${nodeId} made ${maxTurns} model calls (agent.max_turns) and was still calling tools; raise agent.max_turns or simplify the task`);
    this.name = 'AgentTurnLimitError';
  }
}

/** What one agent loop needs. */
export interface AgentLoopOptions {
  nodeId: string;
  /** The model, with the tools bound when there are any. */
  model: ChatRunnable;
  modelName: string;
  /** What the model's tokens cost, when known. */
  price?: ModelPrice | undefined;
  tools: ReadonlyMap<string, StructuredToolInterface>;
  /** Most model calls; each call that asks for tools is followed by their results and another call. */
  maxTurns: number;
  guard?: ToolCallGuard;
  stageDir: string;
  signal: AbortSignal;
  report: LlmReporter;
  /** A tool whose call ends the loop once the reply's calls have their results (a phase's `ready_to_summarize`). */
  stopOn?: string;
  /**
   * How the last of the `maxTurns` calls is made, instead of failing when it
   * would still ask for tools: `note` (if any) joins the messages as a human message,
   * the call goes to `model` (bound to `tools` only), and the loop ends with
   * its reply whatever it asks for (a phased Discuss turn out of tool rounds).
   */
  lastCall?: { model: ChatRunnable; tools: ReadonlyMap<string, StructuredToolInterface>; note?: string };
}

/** How an agent loop ended. */
export interface AgentLoopResult {
  /** The final answer's text (with `stopOn`, the text of the reply that called it). */
  text: string;
  usage?: TokenUsage;
  /** The model calls made. */
  calls: number;
  /** True when the loop ended on the `stopOn` tool. */
  stopped?: boolean;
}

function refusal(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { refused?: unknown }).refused === true;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function oneLine(text: string, limit: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > limit ? `${line.slice(0, limit - 1)}…` : line;
}

/** A one-line summary of a call's arguments for events: its path, command or pattern. */
function detailOf(call: PendingToolCall): string | undefined {
  for (const key of ['path', 'command', 'pattern']) {
    const value = call.args[key];
    if (typeof value === 'string' && value) return oneLine(value, 120);
  }
  return undefined;
}

/**
 * Runs a model in a tool-calling loop (the `agent` backend; with no tools it
 * is a single call, the `chat` backend): call the model with `messages`;
 * while it asks for tools, run each (through the guard), append the results
 * and call again, at most `maxTurns` calls (the last one made as `lastCall`
 * says, when given). `messages` is extended in place with everything
 * exchanged, so a session can be kept. Tool errors and refusals go back to
 * the model as tool results; they do not fail the stage.
 */
export async function runAgentLoop(messages: BaseMessage[], options: AgentLoopOptions): Promise<AgentLoopResult> {
  let usage: TokenUsage | undefined;
  for (let turn = 1; turn <= options.maxTurns; turn++) {
    const last = turn === options.maxTurns ? options.lastCall : undefined;
    if (last?.note !== undefined) messages.push(new HumanMessage(last.note));
    const step = last ? { ...options, model: last.model, tools: last.tools } : options;
    // Tokens spent before an error reach the engine through the report (the stage handler attaches them).
    const reply = await callModel(step.model, messages, { signal: options.signal, report: options.report, modelName: options.modelName, price: options.price });
    usage = addUsage(usage, reply.usage);
    const calls = reply.message.tool_calls ?? [];
    // Keep a plain AIMessage in the history (a merged chunk carries streaming-only fields).
    messages.push(new AIMessage({ content: reply.message.content, tool_calls: calls, ...(reply.message.usage_metadata ? { usage_metadata: reply.message.usage_metadata } : {}) }));
    if (calls.length === 0) return { text: reply.message.text, calls: turn, ...(usage ? { usage } : {}) };
    // At the token limit the last call's arguments may be cut off (LangChain closes the JSON where it stopped): it is not run.
    const cutOff = stoppedAtTokenLimit(reply.message) ? calls.length - 1 : -1;
    for (const [index, raw] of calls.entries()) {
      const call: PendingToolCall = { id: raw.id ?? `call_${turn}_${raw.name}`, name: raw.name, args: (raw.args ?? {}) as Record<string, unknown> };
      messages.push(await runToolCall(call, step, index === cutOff));
    }
    if (options.stopOn !== undefined && calls.some((c) => c.name === options.stopOn)) return { text: reply.message.text, calls: turn, stopped: true, ...(usage ? { usage } : {}) };
    if (last) return { text: reply.message.text, calls: turn, ...(usage ? { usage } : {}) };
  }
  throw new AgentTurnLimitError(options.nodeId, options.maxTurns);
}

async function runToolCall(call: PendingToolCall, options: AgentLoopOptions, cutOff = false): Promise<ToolMessage> {
  const started = performance.now();
  const finish = (content: string, status: ToolCallStatus): ToolMessage => {
    const durationMs = performance.now() - started;
    const detail = detailOf(call);
    options.report.toolCall({ tool: call.name, callId: call.id, status, durationMs, ...(detail ? { detail } : {}) });
    logToolCall(options.stageDir, call, status, content, durationMs);
    return new ToolMessage({ content, tool_call_id: call.id, name: call.name, status: status === 'ok' ? 'success' : 'error' });
  };
  if (cutOff) return finish(CUT_OFF_CALL_RESULT, 'refused');
  const tool = options.tools.get(call.name);
  if (!tool) {
    return finish(`error: there is no tool named ${JSON.stringify(call.name)}; the tools are: ${[...options.tools.keys()].join(', ') || 'none'}`, 'refused');
  }
  if (options.guard) {
    const verdict = await options.guard.before(call, options.signal);
    if (!verdict.proceed) return finish(`skipped: ${verdict.reason}`, 'skipped');
  }
  let result: string;
  let status: ToolCallStatus;
  try {
    const output: unknown = await tool.invoke(call.args, { signal: options.signal });
    result = typeof output === 'string' ? output : JSON.stringify(output);
    status = 'ok';
  } catch (error) {
    if (options.signal.aborted) throw error;
    result = refusal(error) ? describe(error) : `error: ${describe(error)}`;
    status = refusal(error) ? 'refused' : 'error';
  }
  await options.guard?.after(call, result, status, options.signal);
  return finish(result, status);
}

function logToolCall(stageDir: string, call: PendingToolCall, status: ToolCallStatus, result: string, durationMs: number): void {
  const line = {
    at: new Date().toISOString(),
    tool: call.name,
    call_id: call.id,
    arguments: call.args,
    status,
    duration_ms: Math.round(durationMs),
    result: result.length > LOGGED_RESULT_CHARS ? `${result.slice(0, LOGGED_RESULT_CHARS)}…` : result,
  };
  try {
    appendFileSync(join(stageDir, TOOL_CALLS_FILE), `${JSON.stringify(line)}\n`);
  } catch {
    // the log is an aid; a full disk must not fail the call
  }
}
