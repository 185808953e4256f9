import { percentiles, type Percentiles, type RunTiming } from './run-timings.js';

/** What one round of the workers benchmark measured. */
export interface RoundResult {
  /** `file store, 1 process` or `PostgreSQL, N workers`. */
  label: string;
  /** Worker processes (1 for the file store's one process) and runs each drives at once. */
  processes: number;
  concurrency: number;
  /** Runs of the burst, and nodes they ran (start and exit included). */
  runs: number;
  nodes: number;
  /** From the first run asked for to the last one's end (its `pipeline.completed`), ms. */
  wallMs: number;
  /** nodes / wall time. */
  nodesPerSecond: number;
  runsPerSecond: number;
  /** From a run asked for to its `pipeline.started`, ms (burst: includes the wait behind the runs queued before it). */
  toStart: Percentiles;
  /** Each run's `durationMs / nodesRun`, ms: the time per node a run saw, other runs sharing the CPU included. */
  perNode: Percentiles;
  /** How long the front end's `enqueue` call took, ms (PostgreSQL rounds). */
  enqueue?: Percentiles;
  /** Runs queued one at a time into idle workers after the burst: asked for → `pipeline.started`, ms. */
  pickup?: Percentiles;
  /** Runs each worker drove (burst and probes), by its log. */
  perWorker?: number[];
  /** Spawn → "taking runs" of each worker process, ms. */
  workerStartMs?: number[];
}

/** The round's figures from its burst's timings (and its probes'). */
export function summarizeRound(
  base: Pick<RoundResult, 'label' | 'processes' | 'concurrency'> & Partial<Pick<RoundResult, 'perWorker' | 'workerStartMs'>>,
  burst: readonly RunTiming[],
  probes: readonly RunTiming[],
  enqueueMs: readonly number[] = [],
): RoundResult {
  const first = Math.min(...burst.map((t) => t.enqueuedAt));
  const last = Math.max(...burst.map((t) => t.endedAt));
  const nodes = burst.reduce((sum, t) => sum + t.nodesRun, 0);
  const wallMs = last - first;
  return {
    ...base,
    runs: burst.length,
    nodes,
    wallMs,
    nodesPerSecond: (nodes * 1000) / wallMs,
    runsPerSecond: (burst.length * 1000) / wallMs,
    toStart: percentiles(burst.map((t) => t.startedAt - t.enqueuedAt)),
    perNode: percentiles(burst.map((t) => t.durationMs / t.nodesRun)),
    ...(enqueueMs.length ? { enqueue: percentiles(enqueueMs) } : {}),
    ...(probes.length ? { pickup: percentiles(probes.map((t) => t.startedAt - t.enqueuedAt)) } : {}),
  };
}

/** Throws unless every run completed (a failed run's timing means nothing). */
export function checkCompleted(label: string, timings: readonly RunTiming[], nodesEach: number): void {
  const bad = timings.filter((t) => t.status !== 'completed' || t.nodesRun !== nodesEach);
  if (bad.length) throw new Error(`${label}: ${bad.length} of ${timings.length} runs did not complete with ${nodesEach} nodes (first: ${bad[0]?.id} ${bad[0]?.status} after ${bad[0]?.nodesRun})`);
}
