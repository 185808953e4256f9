import { z } from 'zod';

/** What LLM calls cost, in one currency (`orchestra.yaml`'s `prices`). */
export interface Cost {
  amount: number;
  /** An ISO 4217 code, such as `USD`. */
  currency: string;
}

/** Tokens an LLM call (or a node, or a run) used. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /**
   * What they cost, when every call summed here had a known price (a model
   * without one, or calls priced in two currencies, leave it out: an
   * undercount would mislead).
   */
  cost?: Cost;
}

const count = z.number().int().nonnegative();
const CostSchema = z.object({ amount: z.number().nonnegative(), currency: z.string().min(1) });

/** Token usage as files record it (`status.json`, `journal.jsonl`, `checkpoint.json`): snake_case. */
export const TokenUsageFileSchema = z.object({ input_tokens: count, output_tokens: count, total_tokens: count, cost: CostSchema.optional() });

/** The on-disk form of {@link TokenUsage}. */
export type TokenUsageFile = z.infer<typeof TokenUsageFileSchema>;

/** The in-memory form, for checking what handlers return. */
export const TokenUsageSchema = z.object({ inputTokens: count, outputTokens: count, totalTokens: count, cost: CostSchema.optional() });

/** The sum of two costs: known only when both are, in the same currency. */
function addCost(a: Cost | undefined, b: Cost | undefined): Cost | undefined {
  if (!a || !b || a.currency !== b.currency) return undefined;
  return { amount: a.amount + b.amount, currency: a.currency };
}

/** The sum of two usages; `undefined` when neither is known. Its cost is known when both costs are. */
export function addUsage(a: TokenUsage | undefined, b: TokenUsage | undefined): TokenUsage | undefined {
  if (!a) return b ? copy(b) : undefined;
  if (!b) return copy(a);
  const cost = addCost(a.cost, b.cost);
  return { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens, totalTokens: a.totalTokens + b.totalTokens, ...(cost ? { cost } : {}) };
}

function copy(usage: TokenUsage): TokenUsage {
  return { ...usage, ...(usage.cost ? { cost: { ...usage.cost } } : {}) };
}

/** A usage as files record it. */
export function usageToFile(usage: TokenUsage): TokenUsageFile {
  return { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens, total_tokens: usage.totalTokens, ...(usage.cost ? { cost: { ...usage.cost } } : {}) };
}

/** A usage read back from a file. */
export function usageFromFile(file: TokenUsageFile): TokenUsage {
  return { inputTokens: file.input_tokens, outputTokens: file.output_tokens, totalTokens: file.total_tokens, ...(file.cost ? { cost: { ...file.cost } } : {}) };
}

/**
 * An amount of money as orchestra prints it: `$0.0123` for US dollars, else
 * `0.0123 EUR`; four decimals below one unit (LLM calls cost fractions of a
 * cent), two above.
 */
export function formatCost(cost: Cost): string {
  const digits = cost.amount < 1 ? 4 : 2;
  const amount = cost.amount.toFixed(digits);
  return cost.currency === 'USD' ? `$${amount}` : `${amount} ${cost.currency}`;
}
