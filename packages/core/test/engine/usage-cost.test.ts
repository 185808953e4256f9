import { describe, expect, it } from 'vitest';
import { formatCost } from '../../src/index.js';
import { addUsage, usageFromFile, usageToFile } from '../../src/store.js';

const usd = (amount: number) => ({ amount, currency: 'USD' });

describe('token usage with a cost', () => {
  it('sums costs when both sides have one, in one currency; otherwise the sum has none', () => {
    const a = { inputTokens: 10, outputTokens: 5, totalTokens: 15, cost: usd(0.25) };
    const b = { inputTokens: 1, outputTokens: 2, totalTokens: 3, cost: usd(0.5) };
    expect(addUsage(a, b)).toEqual({ inputTokens: 11, outputTokens: 7, totalTokens: 18, cost: usd(0.75) });
    const unpriced = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
    expect(addUsage(a, unpriced)).toEqual({ inputTokens: 11, outputTokens: 6, totalTokens: 17 });
    expect(addUsage(a, { ...b, cost: { amount: 1, currency: 'EUR' } })?.cost).toBeUndefined();
    // A stage without model calls (no usage at all) costs nothing: the other side's cost stands.
    expect(addUsage(a, undefined)).toEqual(a);
    expect(addUsage(undefined, b)).toEqual(b);
    // Copies: the sum shares nothing with its parts.
    const sum = addUsage(a, undefined) as typeof a;
    sum.cost.amount = 99;
    expect(a.cost.amount).toBe(0.25);
  });

  it('goes to files and back with its cost', () => {
    const usage = { inputTokens: 40, outputTokens: 10, totalTokens: 50, cost: { amount: 0.00027, currency: 'USD' } };
    expect(usageToFile(usage)).toEqual({ input_tokens: 40, output_tokens: 10, total_tokens: 50, cost: { amount: 0.00027, currency: 'USD' } });
    expect(usageFromFile(usageToFile(usage))).toEqual(usage);
    expect(usageToFile({ inputTokens: 1, outputTokens: 1, totalTokens: 2 })).toEqual({ input_tokens: 1, output_tokens: 1, total_tokens: 2 });
  });

  it('prints dollars with a sign and other currencies by code, four decimals under one unit', () => {
    expect(formatCost(usd(0.00081))).toBe('$0.0008');
    expect(formatCost(usd(12.345))).toBe('$12.35');
    expect(formatCost({ amount: 0.18, currency: 'EUR' })).toBe('0.1800 EUR');
  });
});
