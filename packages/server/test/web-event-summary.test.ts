import { describe, expect, it } from 'vitest';
import { eventSummary } from '../web/format.js';

const at = '2026-11-27T10:00:00.000Z';
const priced = { inputTokens: 1000, outputTokens: 234, totalTokens: 1234, cost: { amount: 0.0123, currency: 'USD' } };
const unpriced = { inputTokens: 40, outputTokens: 10, totalTokens: 50 };

/** The line the event log shows for an event. */
function line(type: string, data: Record<string, unknown>): string {
  return eventSummary({ type, data: { type, at, ...data } });
}

describe("the event log's lines: what a stage and the run used", () => {
  it("ends a stage's line with its tokens and its cost when its models have prices", () => {
    expect(line('stage.completed', { nodeId: 'draft', index: 1, status: 'success', durationMs: 1500, usage: priced })).toBe('draft: success in 1.5 s, 1,234 tokens, $0.0123');
    expect(line('stage.failed', { nodeId: 'draft', index: 1, failureReason: 'bad reply', willRetry: false, durationMs: 5, usage: { ...priced, cost: { amount: 2.5, currency: 'EUR' } } })).toBe(
      'draft: bad reply, 1,234 tokens, 2.50 EUR',
    );
  });

  it('gives the tokens without a cost when a model has no price, and nothing when no call reported tokens', () => {
    expect(line('stage.completed', { nodeId: 'review', index: 2, status: 'success', durationMs: 5, usage: unpriced })).toBe('review: success in 5 ms, 50 tokens');
    expect(line('stage.completed', { nodeId: 'check', index: 3, status: 'success', durationMs: 5 })).toBe('check: success in 5 ms');
    expect(line('stage.failed', { nodeId: 'check', index: 3, failureReason: 'exit 1', willRetry: true, durationMs: 5 })).toBe('check: exit 1 (will retry)');
  });

  it("ends the run's last line with its tokens and cost", () => {
    expect(line('pipeline.completed', { status: 'success', durationMs: 61_000, nodesRun: 4, retries: 0, usage: priced })).toBe('completed: 4 nodes in 1 min 1 s, 1,234 tokens, $0.0123');
    expect(line('pipeline.failed', { failureReason: 'draft failed', durationMs: 10, nodesRun: 2, retries: 0, usage: unpriced })).toBe('failed: draft failed, 50 tokens');
  });

  it('ignores a usage of another shape rather than print a wrong number', () => {
    expect(line('stage.completed', { nodeId: 'draft', index: 1, status: 'success', durationMs: 5, usage: { total_tokens: 50 } })).toBe('draft: success in 5 ms');
    expect(line('stage.completed', { nodeId: 'draft', index: 1, status: 'success', durationMs: 5, usage: { totalTokens: 50, cost: { amount: '1', currency: 'USD' } } })).toBe(
      'draft: success in 5 ms, 50 tokens',
    );
  });
});
