import type { ToolCallStatus } from '../engine/events.js';
import type { TokenUsage } from '../engine/usage.js';

/** One finished LLM call, as a backend reports it. */
export interface LlmCall {
  /** The model that answered (as the provider names it, when it says). */
  model: string;
  /** The API it went through (`openai`, `anthropic`, `gemini`, `ollama`), when the backend knows it. */
  provider?: string;
  durationMs: number;
  usage?: TokenUsage;
  /** The phase of a phased stage the call belongs to (`discuss`, `summarize`, `serialize`). */
  phase?: string;
}

/** One finished tool call of an agent, as a backend reports it. */
export interface ToolCallReport {
  tool: string;
  callId: string;
  status: ToolCallStatus;
  durationMs: number;
  /** A one-line summary: the path, the command. */
  detail?: string;
}

/**
 * What a backend tells the stage while it works. The handler turns each
 * report into a run event (`llm.delta`, `llm.response`, `agent.tool_call`)
 * and sums the usage into the node's outcome. Every method is optional to
 * call; none throws.
 */
export interface LlmReporter {
  /** A piece of the reply as it streams in (`phase`: the phase of a phased stage it belongs to, as in {@link LlmCall}). */
  delta(text: string, phase?: string): void;
  /** A call finished. */
  response(call: LlmCall): void;
  /** A tool call finished. */
  toolCall(report: ToolCallReport): void;
}

/** A reporter that drops everything (for calling a backend outside a run). */
export const silentReporter: LlmReporter = { delta() {}, response() {}, toolCall() {} };
