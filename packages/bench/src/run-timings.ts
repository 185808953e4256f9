import type { RunCatalogue } from '@orchestra/core';

/** A run queued (or submitted) by the benchmark: its id and when it was asked for (`Date.now()`, the clock events' `at` are on). */
export interface Submitted {
  id: string;
  enqueuedAt: number;
}

/** When a run was asked for, began and ended, from its own events. */
export interface RunTiming extends Submitted {
  /** `pipeline.started`'s `at` (epoch ms; events carry milliseconds): the run's first checkpoint is written, its first node comes next. */
  startedAt: number;
  /** `pipeline.completed`'s (or `pipeline.failed`'s) `at`. */
  endedAt: number;
  /** That event's `durationMs`: from just after `pipeline.started` to the end, measured by the engine (sub-millisecond). */
  durationMs: number;
  /** Its `nodesRun` (start and exit included). */
  nodesRun: number;
  status: 'completed' | 'failed';
}

interface EventLine {
  type?: string;
  at?: string;
  durationMs?: number;
  nodesRun?: number;
}

/** The timing of one run from its event lines; throws when it has not started or ended. */
export function timingOf(run: Submitted, lines: readonly string[]): RunTiming {
  let started: EventLine | undefined;
  let ended: EventLine | undefined;
  for (const line of lines) {
    const event = JSON.parse(line) as EventLine;
    if (event.type === 'pipeline.started') started ??= event;
    else if (event.type === 'pipeline.completed' || event.type === 'pipeline.failed') ended = event;
  }
  if (!started?.at || !ended?.at || ended.durationMs === undefined || ended.nodesRun === undefined) {
    throw new Error(`run ${run.id} has ${started ? 'no end' : 'not started'} in its events (${lines.length} lines)`);
  }
  return {
    ...run,
    startedAt: Date.parse(started.at),
    endedAt: Date.parse(ended.at),
    durationMs: ended.durationMs,
    nodesRun: ended.nodesRun,
    status: ended.type === 'pipeline.completed' ? 'completed' : 'failed',
  };
}

/**
 * Reads every run's events from `catalogue` (a few at a time) and returns
 * their timings, in the order given. The same for any store: the file
 * catalogue reads `events.jsonl`, PostgreSQL its `events` lines.
 */
export async function readRunTimings(catalogue: RunCatalogue, runs: readonly Submitted[], parallel = 8): Promise<RunTiming[]> {
  const timings: RunTiming[] = new Array(runs.length);
  let next = 0;
  const reader = async () => {
    for (let i = next++; i < runs.length; i = next++) {
      const run = runs[i] as Submitted;
      const store = await catalogue.open(run.id);
      timings[i] = timingOf(run, await store.readEvents());
    }
  };
  await Promise.all(Array.from({ length: parallel }, reader));
  return timings;
}

/** p50, p99 and the largest of a list of values (nearest rank). */
export interface Percentiles {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles of `values` (at least one). */
export function percentiles(values: readonly number[]): Percentiles {
  if (values.length === 0) throw new RangeError('percentiles needs at least one value');
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
  return { count: sorted.length, p50: rank(50), p99: rank(99), max: sorted[sorted.length - 1] as number };
}
