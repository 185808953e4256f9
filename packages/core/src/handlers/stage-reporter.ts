import type { HandlerInput } from '../engine/handler.js';
import { addUsage, type TokenUsage } from '../engine/usage.js';
import type { LlmReporter } from './codergen-backend.js';

/** A reporter for one attempt at an LLM stage, and the tokens reported through it. */
export interface StageReporter {
  reporter: LlmReporter;
  /** Tokens of every call reported so far. */
  usage(): TokenUsage | undefined;
}

/**
 * Turns a backend's reports into the stage's events — `llm.delta`,
 * `llm.response`, `agent.tool_call` — and sums the usage. `turn` gives the
 * conversation turn an interactive node is at (undefined for single-shot
 * stages).
 */
export function createStageReporter(input: Pick<HandlerInput, 'node' | 'emit'>, turn: () => number | undefined = () => undefined): StageReporter {
  const nodeId = input.node.id;
  let total: TokenUsage | undefined;
  const at = (): { turn?: number } => {
    const t = turn();
    return t === undefined ? {} : { turn: t };
  };
  return {
    reporter: {
      delta(text, phase) {
        if (text) input.emit({ type: 'llm.delta', nodeId, text, ...at(), ...(phase ? { phase } : {}) });
      },
      response(call) {
        total = addUsage(total, call.usage);
        input.emit({ type: 'llm.response', nodeId, model: call.model, ...(call.provider ? { provider: call.provider } : {}), durationMs: call.durationMs, ...(call.usage ? { usage: call.usage } : {}), ...at(), ...(call.phase ? { phase: call.phase } : {}) });
      },
      toolCall(report) {
        input.emit({ type: 'agent.tool_call', nodeId, ...report });
      },
    },
    usage: () => total,
  };
}

/** Attaches tokens spent before an error to it (as `usage`), so the engine counts them. */
export function withSpentUsage(error: unknown, usage: TokenUsage | undefined): unknown {
  if (usage && typeof error === 'object' && error !== null && !('usage' in error)) {
    try {
      (error as { usage?: TokenUsage }).usage = usage;
    } catch {
      // a frozen error: the tokens go uncounted
    }
  }
  return error;
}
