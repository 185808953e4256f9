import { describe, expect, it, vi } from 'vitest';
import { SETTLE_AFTER_TIMEOUT_MS } from '../../src/engine/execute-node.js';
import type { Graph } from '../../src/index.js';
import { DEFAULT_BACKOFF, RETRY_PRESETS, buildRetryPolicy, delayForAttempt, isRetryableError, type BackoffConfig } from '../../src/handlers.js';
import { ManualClock, checkpointAt, dot, eventsOf, graphFrom, instantClock, journalAt, run, runInMemory, scripted, statusAt, untilAborted, useTempDirs, within } from './engine-helpers.js';

useTempDirs();

/** start -> a -> exit, with `a` a scripted node carrying `attrs`. */
function single(attrs = '', graphAttrs = ''): string {
  return dot(`  a [type="s"${attrs ? `, ${attrs}` : ''}]\n  start -> a -> exit`, 'P', graphAttrs);
}

function httpError(status: number, message = `HTTP ${status}`): Error {
  return Object.assign(new Error(message), { status });
}

describe('delayForAttempt and presets (spec §3.6)', () => {
  const exact: BackoffConfig = { initialDelayMs: 200, backoffFactor: 2, maxDelayMs: 60_000, jitter: false };

  it('grows exponentially from the initial delay and is capped', () => {
    expect([1, 2, 3, 4, 5].map((a) => delayForAttempt(a, exact))).toEqual([200, 400, 800, 1600, 3200]);
    expect(delayForAttempt(30, exact)).toBe(60_000);
    expect(delayForAttempt(3, { ...exact, maxDelayMs: 500 })).toBe(500);
    expect([1, 2, 3].map((a) => delayForAttempt(a, { ...exact, initialDelayMs: 500, backoffFactor: 1 }))).toEqual([500, 500, 500]);
  });

  it('scales by a jitter factor in [0.5, 1.5) when jitter is on', () => {
    const jittered = { ...exact, jitter: true };
    expect(delayForAttempt(1, jittered, () => 0)).toBe(100);
    expect(delayForAttempt(1, jittered, () => 0.5)).toBe(200);
    expect(delayForAttempt(2, jittered, () => 0.75)).toBe(500);
    expect(delayForAttempt(1, jittered, () => 0.999)).toBeCloseTo(299.8, 5);
    for (let i = 0; i < 50; i++) {
      const d = delayForAttempt(3, jittered);
      expect(d).toBeGreaterThanOrEqual(400);
      expect(d).toBeLessThan(1200);
    }
    // The cap applies before jitter.
    expect(delayForAttempt(30, jittered, () => 0)).toBe(30_000);
  });

  it('defaults to 200 ms doubling up to 60 s with jitter', () => {
    expect(DEFAULT_BACKOFF).toEqual({ initialDelayMs: 200, backoffFactor: 2, maxDelayMs: 60_000, jitter: true });
  });

  it('has the preset policies of the spec table', () => {
    const table = Object.fromEntries(
      Object.entries(RETRY_PRESETS).map(([name, p]) => [name, [p.maxAttempts, p.backoff.initialDelayMs, p.backoff.backoffFactor]]),
    );
    expect(table).toEqual({
      none: [1, 200, 2],
      standard: [5, 200, 2],
      aggressive: [5, 500, 2],
      linear: [3, 500, 1],
      patient: [3, 2000, 3],
    });
    const noJitter = (b: BackoffConfig): BackoffConfig => ({ ...b, jitter: false });
    expect([1, 2, 3].map((a) => delayForAttempt(a, noJitter(RETRY_PRESETS.patient.backoff)))).toEqual([2000, 6000, 18000]);
    expect([1, 2, 3].map((a) => delayForAttempt(a, noJitter(RETRY_PRESETS.aggressive.backoff)))).toEqual([500, 1000, 2000]);
  });
});

describe('isRetryableError (spec §3.6, Appendix D)', () => {
  it('retries rate limits, timeouts, server errors and network failures', () => {
    for (const status of [408, 429, 500, 502, 503, 504]) expect(isRetryableError(httpError(status)), `HTTP ${status}`).toBe(true);
    expect(isRetryableError({ statusCode: 503 })).toBe(true);
    expect(isRetryableError({ response: { status: 429 } })).toBe(true);
    for (const code of ['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EAI_AGAIN', 'ENOTFOUND']) {
      expect(isRetryableError(Object.assign(new Error('net'), { code })), code).toBe(true);
    }
    const timeout = new Error('slow');
    timeout.name = 'TimeoutError';
    expect(isRetryableError(timeout)).toBe(true);
    expect(isRetryableError(new Error('wrapped', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) }))).toBe(true);
    expect(isRetryableError(Object.assign(new Error('flagged'), { retryable: true }))).toBe(true);
  });

  it('does not retry client errors, plain errors or non-objects', () => {
    for (const status of [400, 401, 403, 404, 422]) expect(isRetryableError(httpError(status)), `HTTP ${status}`).toBe(false);
    expect(isRetryableError(new Error('bad prompt'))).toBe(false);
    expect(isRetryableError(Object.assign(new Error('nope'), { code: 'ENOENT' }))).toBe(false);
    expect(isRetryableError('a string')).toBe(false);
    expect(isRetryableError(null)).toBe(false);
    expect(isRetryableError(undefined)).toBe(false);
    // An explicit flag overrides the status.
    expect(isRetryableError(Object.assign(httpError(503), { retryable: false }))).toBe(false);
  });
});

describe('buildRetryPolicy (spec §3.5)', () => {
  function policyOf(source: string): number {
    const graph: Graph = graphFrom(source);
    return buildRetryPolicy(graph.nodes.get('a')!, graph).maxAttempts;
  }

  it('maps max_retries to max_retries + 1 attempts, inheriting the graph default and its legacy alias', () => {
    expect(policyOf(single())).toBe(1);
    expect(policyOf(single('max_retries=3'))).toBe(4);
    expect(policyOf(single('', 'default_max_retries=2'))).toBe(3);
    expect(policyOf(single('', 'default_max_retry=2'))).toBe(3);
    expect(policyOf(single('max_retries=0', 'default_max_retries=5'))).toBe(1);
  });

  it('takes default_max_retries before the legacy default_max_retry when a graph sets both (docs/running.md, Retries)', () => {
    // Whichever is written first: the order is the attributes', not the file's.
    expect(policyOf(single('', 'default_max_retries=2, default_max_retry=5'))).toBe(3);
    expect(policyOf(single('', 'default_max_retry=5, default_max_retries=2'))).toBe(3);
    // 0 is a value, not a gap: it does not fall through to the alias.
    expect(policyOf(single('', 'default_max_retries=0, default_max_retry=4'))).toBe(1);
    // The alias still comes before the graph's default_retry_policy preset (standard: 5 attempts).
    expect(policyOf(single('', 'default_max_retry=1, default_retry_policy=standard'))).toBe(2);
  });
});

describe('retries in a run (spec §3.5, §11.5)', () => {
  it('retries FAIL outcomes while attempts remain and records the retries everywhere', async () => {
    const s = scripted({ a: [{ status: 'fail', failureReason: 'flaky 1' }, { status: 'fail', failureReason: 'flaky 2' }, { status: 'success' }] });
    const { result, events, logsRoot } = await run(single('max_retries=2'), { handlers: { s: s.handler } });
    expect(result.status).toBe('success');
    expect(s.attempts).toEqual(['a#1', 'a#2', 'a#3']);
    expect(result.retries).toBe(2);
    expect(result.context['internal.retry_count.a']).toBe(2);
    expect(result.context.outcome).toBe('success');
    const checkpoint = checkpointAt(logsRoot);
    expect(checkpoint.node_retries.a).toBe(2);
    expect(checkpoint.total_retries).toBe(2);
    expect(journalAt(logsRoot).find((e) => e.node === 'a')?.retries).toBe(2);

    const retrying = eventsOf(events, 'stage.retrying');
    expect(retrying.map((e) => [e.nodeId, e.attempt, e.delayMs])).toEqual([
      ['a', 2, 100],
      ['a', 3, 200],
    ]);
    const failed = eventsOf(events, 'stage.failed');
    expect(failed.map((e) => [e.failureReason, e.willRetry])).toEqual([
      ['flaky 1', true],
      ['flaky 2', true],
    ]);
    expect(eventsOf(events, 'stage.started').filter((e) => e.nodeId === 'a').map((e) => e.attempt)).toEqual([1, 2, 3]);
  });

  it('fails the run when every attempt fails, after exactly max_retries + 1 attempts', async () => {
    const s = scripted({ a: { status: 'fail', failureReason: 'always broken' } });
    const { result, events } = await runInMemory(single('max_retries=2'), { handlers: { s: s.handler } });
    expect(result.status).toBe('fail');
    expect(s.count('a')).toBe(3);
    expect(result.failureReason).toContain('a');
    expect(result.failureReason).toContain('always broken');
    expect(result.completedNodes).toEqual(['start', 'a']);
    const last = eventsOf(events, 'stage.failed').at(-1);
    expect(last).toMatchObject({ nodeId: 'a', willRetry: false });
  });

  it('turns an exhausted RETRY into FAIL, or PARTIAL_SUCCESS with allow_partial=true', async () => {
    const exhausted = scripted({ a: { status: 'retry' } });
    const { result, logsRoot } = await run(single('max_retries=1'), { handlers: { s: exhausted.handler } });
    expect(exhausted.count('a')).toBe(2);
    expect(result.status).toBe('fail');
    expect(result.failureReason).toContain('max retries exceeded');
    expect(statusAt(logsRoot, 'a')).toMatchObject({ outcome: 'fail', failure_reason: 'max retries exceeded' });

    const partial = scripted({ a: { status: 'retry' } });
    const accepted = await run(single('max_retries=1, allow_partial=true'), { handlers: { s: partial.handler } });
    expect(partial.count('a')).toBe(2);
    expect(accepted.result.status).toBe('success');
    expect(accepted.result.completedNodes).toEqual(['start', 'a', 'exit']);
    expect(statusAt(accepted.logsRoot, 'a')).toMatchObject({ outcome: 'partial_success', notes: 'retries exhausted, partial accepted' });
    expect(checkpointAt(accepted.logsRoot).node_outcomes.a).toBe('partial_success');
  });

  it('treats RETRY without max_retries as a FAIL after one attempt', async () => {
    const s = scripted({ a: { status: 'retry' } });
    const { result } = await runInMemory(single(), { handlers: { s: s.handler } });
    expect(s.count('a')).toBe(1);
    expect(result.status).toBe('fail');
  });

  it('uses the graph default_max_retries, its legacy alias, and lets the node override it', async () => {
    for (const graphAttrs of ['default_max_retries=1', 'default_max_retry=1']) {
      const s = scripted({ a: { status: 'fail' } });
      await runInMemory(single('', graphAttrs), { handlers: { s: s.handler } });
      expect(s.count('a'), graphAttrs).toBe(2);
    }
    const s = scripted({ a: { status: 'fail' } });
    await runInMemory(single('max_retries=0', 'default_max_retries=3'), { handlers: { s: s.handler } });
    expect(s.count('a')).toBe(1);
  });

  it('with both graph defaults set, retries as often as default_max_retries says, not the legacy alias', async () => {
    const s = scripted({ a: { status: 'fail', failureReason: 'still broken' } });
    const { result, events } = await runInMemory(single('', 'default_max_retry=3, default_max_retries=1'), { handlers: { s: s.handler } });
    expect(s.attempts).toEqual(['a#1', 'a#2']);
    expect(result).toMatchObject({ status: 'fail', retries: 1, failureReason: 'a failed: still broken' });
    expect(eventsOf(events, 'stage.retrying').map((e) => e.attempt)).toEqual([2]);
  });

  it('does not retry a thrown non-transient error, but retries transient ones', async () => {
    const fatal = scripted({
      a: () => {
        throw httpError(401, 'invalid api key');
      },
    });
    const failed = await runInMemory(single('max_retries=2'), { handlers: { s: fatal.handler } });
    expect(fatal.count('a')).toBe(1);
    expect(failed.result.status).toBe('fail');
    expect(failed.result.failureReason).toContain('invalid api key');

    for (const transient of [httpError(503, 'overloaded'), Object.assign(new Error('try later'), { retryable: true })]) {
      const flaky = scripted({
        a: [
          () => {
            throw transient;
          },
          { status: 'success' },
        ],
      });
      const { result, events } = await runInMemory(single('max_retries=2'), { handlers: { s: flaky.handler } });
      expect(flaky.count('a')).toBe(2);
      expect(result.status).toBe('success');
      expect(eventsOf(events, 'stage.failed')[0]).toMatchObject({ failureReason: transient.message, willRetry: true });
    }
  });

  it('retries a thrown 5xx wherever the error carries it, and not a 4xx next to it', async () => {
    // Independent of the unit cases above: the boundaries of the range, on each field a client library uses.
    const serverErrors: unknown[] = [{ statusCode: 500, message: 'internal' }, { response: { status: 599 } }, new Error('gateway', { cause: { status: 502 } })];
    for (const error of serverErrors) {
      const s = scripted({
        a: [
          () => {
            throw error;
          },
          { status: 'success' },
        ],
      });
      const { result } = await runInMemory(single('max_retries=1'), { handlers: { s: s.handler }, clock: instantClock() });
      expect(s.count('a'), JSON.stringify(error)).toBe(2);
      expect(result.status).toBe('success');
    }
    for (const error of [{ statusCode: 499 }, { response: { status: 404 } }]) {
      const s = scripted({
        a: () => {
          throw error;
        },
      });
      const { result } = await runInMemory(single('max_retries=3'), { handlers: { s: s.handler }, clock: instantClock() });
      expect(s.count('a'), JSON.stringify(error)).toBe(1);
      expect(result.status).toBe('fail');
    }
  });

  it('records the retries of the latest execution of a node in internal.retry_count', async () => {
    // a fails once then succeeds; b sends the run back to a once; a then succeeds at once.
    const s = scripted({
      a: [{ status: 'fail' }, { status: 'success' }],
      b: [{ status: 'success', contextUpdates: { again: 'yes' } }, { status: 'success', contextUpdates: { again: 'no' } }],
    });
    const { result, logsRoot } = await run(
      dot('  a [type="s", max_retries=1]\n  b [type="s"]\n  start -> a -> b\n  b -> a [condition="context.again=yes"]\n  b -> exit [condition="context.again=no"]'),
      { handlers: { s: s.handler } },
    );
    expect(result.completedNodes).toEqual(['start', 'a', 'b', 'a', 'b', 'exit']);
    expect(result.retries).toBe(1);
    expect(result.context['internal.retry_count.a']).toBe(0);
    expect(result.context).not.toHaveProperty('internal.retry_count.b');
    expect(checkpointAt(logsRoot).node_retries).toEqual({}); // a's latest visit used no retry: its earlier count is gone
    expect(journalAt(logsRoot).filter((e) => e.node === 'a').map((e) => e.retries)).toEqual([1, 0]);
  });
});

describe('node timeout', () => {
  it('aborts the handler signal and fails the node with "timed out after <timeout>"', async () => {
    let seen: AbortSignal | undefined;
    const s = scripted({
      a: ({ signal }) => {
        seen = signal;
        return untilAborted(signal);
      },
    });
    // The timeout counts on the injected clock: it fires when the clock says 200 ms have passed, not before.
    const clock = new ManualClock();
    const running = run(single('timeout="200ms"'), { handlers: { s: s.handler }, clock });
    await vi.waitFor(() => expect(clock.pending).toEqual([200]));
    clock.advance(199);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen?.aborted).toBe(false);
    clock.advance(1);
    const { result, logsRoot, events } = await within(running, 10_000, 'the run after its node timed out');
    expect(result.status).toBe('fail');
    expect(result.failureReason).toContain('timed out after 200ms');
    expect(seen?.aborted).toBe(true);
    expect(statusAt(logsRoot, 'a')).toMatchObject({ outcome: 'fail', failure_reason: 'timed out after 200ms' });
    expect(eventsOf(events, 'pipeline.failed')).toHaveLength(1);
  });

  it('times out a handler that ignores its signal, and retries a timed-out attempt as transient', async () => {
    const s = scripted({ a: [() => new Promise<never>(() => {}), { status: 'success' }] });
    const clock = instantClock();
    const { result } = await runInMemory(single('timeout="100ms", max_retries=1'), { handlers: { s: s.handler }, clock });
    expect(s.attempts).toEqual(['a#1', 'a#2']);
    expect(result.status).toBe('success');
    expect(result.retries).toBe(1);
    // The timeout, the wait for the stopped handler to wind down (it never does), the back-off (random 0: half of 200 ms), the second attempt's timeout.
    expect(clock.requested).toEqual([100, SETTLE_AFTER_TIMEOUT_MS, 100, 100]);
  });

  it('does not time out a node that finishes in time', async () => {
    const s = scripted({ a: async () => ({ status: 'success', notes: 'quick' }) });
    const { result } = await runInMemory(single('timeout="2s"'), { handlers: { s: s.handler } });
    expect(result.status).toBe('success');
  });
});
