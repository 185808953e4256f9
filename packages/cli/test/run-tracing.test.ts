import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { ChildRunOrigin, RunEvent } from '@orchestra/core';
import { createRunTracing } from '@orchestra/core/tracing';
import { describe, expect, it } from 'vitest';

/**
 * createRunTracing (@orchestra/core/tracing) on event sequences the CLI
 * tests do not reach (otel-cli.test.ts runs real pipelines): a loop_restart,
 * a conference's roles, a process that stops mid-run, an interrupted run,
 * streamed pieces. The spans go to the SDK's in-memory exporter.
 */

function tracer() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let clock = 1_800_000_000_000;
  const tracing = createRunTracing(provider.getTracer('test'), { now: () => (clock += 10) });
  return { tracing, spans: () => exporter.getFinishedSpans() };
}

const at = '2026-11-27T00:00:00.000Z';
const started = (logsRoot: string, pipeline = 'P'): RunEvent => ({ type: 'pipeline.started', pipeline, logsRoot, resumed: false, startNode: 'start', at });
const stage = (nodeId: string, attempt = 1): RunEvent => ({ type: 'stage.started', nodeId, label: nodeId, handlerType: 'codergen', index: 0, attempt, at });
const done = (nodeId: string): RunEvent => ({ type: 'stage.completed', nodeId, index: 0, status: 'success', durationMs: 1, at });
const named = (spans: ReadableSpan[], name: string) => {
  const found = spans.filter((s) => s.name === name);
  expect(found, name).toHaveLength(1);
  return found[0] as ReadableSpan;
};
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('createRunTracing', () => {
  it('a loop_restart ends the run span (restarted) and starts another that links to it', () => {
    const { tracing, spans } = tracer();
    tracing.onEvent(started('/runs/r1'));
    tracing.onEvent(stage('a'));
    tracing.onEvent(done('a'));
    tracing.onEvent({ type: 'pipeline.restarted', from: 'a', to: 'a', logsRoot: '/runs/r1-restart-1', at });
    tracing.onEvent(started('/runs/r1-restart-1'));
    tracing.onEvent({ type: 'pipeline.completed', status: 'success', durationMs: 5, nodesRun: 1, retries: 0, at });
    const [first, second] = spans().filter((s) => s.name === 'run P');
    expect(first?.attributes).toMatchObject({ 'orchestra.run.id': 'r1', 'orchestra.run.status': 'restarted', 'orchestra.run.restarted_to': '/runs/r1-restart-1' });
    expect(second?.attributes).toMatchObject({ 'orchestra.run.id': 'r1-restart-1', 'orchestra.run.status': 'success' });
    expect(second?.links.map((l) => l.context.spanId)).toEqual([first?.spanContext().spanId]);
    expect(parentOf(second as ReadableSpan)).toBeUndefined();
  });

  it("a conference's roles are spans under its stage, each role's model calls under the role; Gemini is gcp.gemini", () => {
    const { tracing, spans } = tracer();
    tracing.onEvent(started('/runs/c'));
    tracing.onEvent(stage('review'));
    tracing.onEvent({ type: 'llm.response', nodeId: 'review', model: 'chief-model', provider: 'anthropic', durationMs: 5, phase: 'chief', at });
    tracing.onEvent({ type: 'conference.role.started', nodeId: 'review', role: 'critic', tier: 'fast', at });
    tracing.onEvent({ type: 'llm.delta', nodeId: 'review', text: 'piece', at });
    tracing.onEvent({ type: 'llm.response', nodeId: 'review', model: 'gemini-2.5-flash', provider: 'gemini', durationMs: 4, usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 }, phase: 'role:critic', at });
    tracing.onEvent({ type: 'conference.role.completed', nodeId: 'review', role: 'critic', status: 'answered', durationMs: 6, at });
    tracing.onEvent(done('review'));
    tracing.onEvent({ type: 'pipeline.completed', status: 'success', durationMs: 5, nodesRun: 1, retries: 0, at });
    const all = spans();
    const review = named(all, 'stage review');
    const role = named(all, 'role critic');
    expect(parentOf(role)).toBe(review.spanContext().spanId);
    expect(role.attributes).toMatchObject({ 'orchestra.conference.role': 'critic', 'orchestra.conference.tier': 'fast', 'orchestra.conference.role_status': 'answered' });
    const call = named(all, 'chat gemini-2.5-flash');
    expect(parentOf(call)).toBe(role.spanContext().spanId);
    expect(call.attributes).toMatchObject({ 'gen_ai.provider.name': 'gcp.gemini', 'gen_ai.usage.input_tokens': 7, 'gen_ai.usage.output_tokens': 3, 'orchestra.llm.phase': 'role:critic' });
    expect(parentOf(named(all, 'chat chief-model'))).toBe(review.spanContext().spanId);
    // Its span ends when its event comes and starts its duration before.
    const ms = (t: [number, number]) => t[0] * 1000 + t[1] / 1e6;
    expect(ms(call.endTime) - ms(call.startTime)).toBeCloseTo(4, 3);
    expect(all.some((s) => s.name.includes('delta'))).toBe(false);
  });

  it('an interrupted run ends its open stage as interrupted', () => {
    const { tracing, spans } = tracer();
    tracing.onEvent(started('/runs/i'));
    tracing.onEvent(stage('slow'));
    tracing.onEvent({ type: 'pipeline.interrupted', reason: 'SIGINT', durationMs: 3, lastNode: 'slow', at });
    expect(named(spans(), 'stage slow').attributes['orchestra.stage.status']).toBe('interrupted');
    expect(named(spans(), 'run P').attributes).toMatchObject({ 'orchestra.run.status': 'interrupted', 'orchestra.run.stop_reason': 'SIGINT' });
  });

  it('end() closes what a stopped process left open, a child run before the stage that started it; a second end() does nothing', () => {
    const { tracing, spans } = tracer();
    tracing.onEvent(started('/runs/p', 'Parent'));
    tracing.onEvent(stage('sub'));
    const origin: ChildRunOrigin = { logsRoot: '/runs/p/sub/run-1', parentLogsRoot: '/runs/p', nodeId: 'sub' };
    tracing.onChildEvent(started('/runs/p/sub/run-1', 'Child'), origin);
    tracing.onChildEvent(stage('inner'), origin);
    expect(spans()).toEqual([]);
    tracing.end();
    const all = spans();
    expect(all.map((s) => s.name)).toEqual(['stage inner', 'run Child', 'stage sub', 'run Parent']);
    expect(all.map((s) => s.attributes['orchestra.run.status'] ?? s.attributes['orchestra.stage.status'])).toEqual(['abandoned', 'abandoned', 'abandoned', 'abandoned']);
    expect(parentOf(named(all, 'run Child'))).toBe(named(all, 'stage sub').spanContext().spanId);
    tracing.end();
    expect(spans()).toHaveLength(4);
  });

  it('events of a run whose start it did not see make no span', () => {
    const { tracing, spans } = tracer();
    tracing.onEvent(stage('a'));
    tracing.onEvent({ type: 'llm.response', nodeId: 'a', model: 'm', durationMs: 1, at });
    tracing.onChildEvent(stage('b'), { logsRoot: '/x', parentLogsRoot: '/y', nodeId: 'n' });
    tracing.end();
    expect(spans()).toEqual([]);
  });
});
