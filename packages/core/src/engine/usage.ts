import { z } from 'zod';

/** Tokens an LLM call (or a node, or a run) used. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

const count = z.number().int().nonnegative();

/** Token usage as files record it (`status.json`, `journal.jsonl`, `checkpoint.json`): snake_case. */
export const TokenUsageFileSchema = z.object({ input_tokens: count, output_tokens: count, total_tokens: count });

/** The on-disk form of {@link TokenUsage}. */
export type TokenUsageFile = z.infer<typeof TokenUsageFileSchema>;

/** The in-memory form, for checking what handlers return. */
export const TokenUsageSchema = z.object({ inputTokens: count, outputTokens: count, totalTokens: count });

/** The sum of two usages; `undefined` when neither is known. */
export function addUsage(a: TokenUsage | undefined, b: TokenUsage | undefined): TokenUsage | undefined {
  if (!a) return b ? { ...b } : undefined;
  if (!b) return { ...a };
  return { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens, totalTokens: a.totalTokens + b.totalTokens };
}

/** A usage as files record it. */
export function usageToFile(usage: TokenUsage): TokenUsageFile {
  return { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens, total_tokens: usage.totalTokens };
}

/** A usage read back from a file. */
export function usageFromFile(file: TokenUsageFile): TokenUsage {
  return { inputTokens: file.input_tokens, outputTokens: file.output_tokens, totalTokens: file.total_tokens };
}
