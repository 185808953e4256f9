import type { ChatContentPart, ChatMessage, ScriptStep, Usage } from './types.js';

/** Number of whitespace-separated words in a text. */
export function countWords(text: string): number {
  const words = text.trim();
  return words === '' ? 0 : words.split(/\s+/).length;
}

/** Text of a message content: the string itself, or the text parts joined with newlines. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part): part is ChatContentPart => typeof part === 'object' && part !== null)
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/**
 * The usage reported for an answer: the step's own, or deterministic counts —
 * prompt = words over all message contents, completion = words of the reply
 * text plus words of the tool-call argument JSON (each at least 1).
 */
export function usageFor(step: ScriptStep, messages: readonly ChatMessage[] | undefined, argumentTexts: readonly string[] = []): Usage {
  if ((step.kind === 'reply' || step.kind === 'tool_calls') && step.usage) return step.usage;
  const promptWords = (messages ?? []).reduce((sum, message) => sum + countWords(contentText(message?.content)), 0);
  const text = step.kind === 'reply' || step.kind === 'tool_calls' ? (step.text ?? '') : '';
  const completionWords = countWords(text) + argumentTexts.reduce((sum, args) => sum + countWords(args), 0);
  return { promptTokens: Math.max(1, promptWords), completionTokens: Math.max(1, completionWords) };
}

/** A {@link Usage} in the wire format of the OpenAI API. */
export function usageJson(usage: Usage): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
  };
}
