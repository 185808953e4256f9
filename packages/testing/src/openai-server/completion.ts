import type { ReplyStep, ToolCallsStep, Usage } from './types.js';
import { usageJson } from './usage.js';

/** What every completion object (or chunk) of one answer shares. */
export interface CompletionContext {
  /** `id`, e.g. `chatcmpl-scripted-3`. */
  id: string;
  /** `created`, Unix seconds. */
  created: number;
  /** `model` of the answer. */
  model: string;
  /** Reported usage. */
  usage: Usage;
  /** 1-based index of the request, for default tool-call ids. */
  requestIndex: number;
}

/** A tool call in the wire format of the OpenAI API. */
export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** The tool calls of a step in wire format: arguments as JSON text, ids defaulted. */
export function wireToolCalls(step: ToolCallsStep, requestIndex: number): WireToolCall[] {
  return step.calls.map((call, position) => ({
    id: call.id ?? `call_${requestIndex}_${position + 1}`,
    type: 'function',
    function: {
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    },
  }));
}

/** A non-streaming `chat.completion` object answering with a reply or tool calls. */
export function chatCompletion(step: ReplyStep | ToolCallsStep, context: CompletionContext): Record<string, unknown> {
  const message =
    step.kind === 'reply'
      ? { role: 'assistant', content: step.text, refusal: null }
      : {
          role: 'assistant',
          content: step.text ?? null,
          refusal: null,
          tool_calls: wireToolCalls(step, context.requestIndex),
        };
  return {
    id: context.id,
    object: 'chat.completion',
    created: context.created,
    model: context.model,
    system_fingerprint: null,
    choices: [
      {
        index: 0,
        message,
        logprobs: null,
        finish_reason: step.kind === 'reply' ? (step.finishReason ?? 'stop') : 'tool_calls',
      },
    ],
    usage: usageJson(context.usage),
  };
}
