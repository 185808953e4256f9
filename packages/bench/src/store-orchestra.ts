import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { FileRunStore, runPipeline, type Graph, type HandlerRegistry, type RunStore } from '@orchestra/core';
import type { Sample } from './store-measure.js';

/** Makes a new, empty store for one run; `cleanup` removes what it left (outside the timing). */
export type StoreMaker = (label: string) => { store: RunStore; cleanup: () => void };

/**
 * `new MemoryRunStore()` from @orchestra/testing, looked up at run time so
 * the benchmark builds and runs (without that case) while the store is not
 * there yet.
 */
export async function memoryStoreMaker(): Promise<StoreMaker | undefined> {
  const testing = (await import('@orchestra/testing')) as unknown as { MemoryRunStore?: new () => RunStore };
  const MemoryRunStore = testing.MemoryRunStore;
  if (typeof MemoryRunStore !== 'function') return undefined;
  return () => ({ store: new MemoryRunStore(), cleanup: () => {} });
}

/**
 * A `FileRunStore` in a new run directory under `base` (the engine's default
 * store, default options unless `syncEveryNode`: then the journal is flushed
 * to disk after every node).
 */
export function fileStoreMaker(base: string, syncEveryNode = false): StoreMaker {
  return (label) => {
    const dir = join(base, label);
    return { store: new FileRunStore(dir, syncEveryNode ? { syncEveryNode } : {}), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  };
}

let runs = 0;

/**
 * Runs the chain once through `runPipeline` (plan and validation, store
 * creation, lease, every node, final checkpoint) and returns the cost per
 * chain node. A run that does not end in success with every node completed
 * and `i = n - 1` throws: timing a broken run means nothing.
 */
export async function timeOrchestraChain(graph: Graph, n: number, registry: HandlerRegistry, make: StoreMaker): Promise<Sample> {
  const { store, cleanup } = make(`run-${process.pid}-${runs++}`);
  try {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const result = await runPipeline(graph, { registry, store });
    const elapsed = performance.now() - started;
    const used = process.cpuUsage(cpu);
    if (result.status !== 'success' || result.completedNodes.length !== n + 2 || result.context.i !== n - 1) {
      throw new Error(`orchestra ${n}-node chain ended ${result.status} after ${result.completedNodes.length} nodes with i=${String(result.context.i)}${result.failureReason ? `: ${result.failureReason}` : ''}`);
    }
    return { micros: (elapsed * 1000) / n, user: used.user / n, system: used.system / n };
  } finally {
    cleanup();
  }
}

/** Sizes of the floor's writes: what the file store writes per chain node (measured with strace on such a run). */
const STATUS_TEXT = `${JSON.stringify({ outcome: 'success', preferred_label: '', suggested_next_ids: [], context_updates: { i: 1234 }, notes: '' }, null, 2)}\n`;
const JOURNAL_LINE = `${JSON.stringify({ seq: 1236, node: 's1234', status: 'success', retries: 0, context: { current_node: 's1234', i: 1234, outcome: 'success' }, next: 's1235' })}\n`;
const EVENTS_LINES = [
  { type: 'stage.started', nodeId: 's1234', label: 's1234', handlerType: 'bench.step', index: 1236, attempt: 1, at: '2026-11-23T17:04:43.323Z' },
  { type: 'stage.completed', nodeId: 's1234', index: 1236, status: 'success', durationMs: 0.26979000000005726, at: '2026-11-23T17:04:43.323Z' },
  { type: 'edge.selected', from: 's1234', to: 's1235', label: '', reason: 'weight', at: '2026-11-23T17:04:43.323Z' },
  { type: 'checkpoint.saved', nodeId: 's1234', completedNodes: 1236, file: false, at: '2026-11-23T17:04:43.324Z' },
]
  .map((e) => `${JSON.stringify(e)}\n`)
  .join('');

/**
 * The file-system floor of a file-store run of `n` nodes: per node, exactly
 * the calls `FileRunStore` makes (strace of a chain run): `mkdir` of the
 * stage directory, `status.json` written (open, write, close), one journal
 * line and one batch of event lines appended to files kept open. The
 * checkpoint (rewritten, fsync'd and renamed at most every 500 ms) is left
 * out: it is amortised over hundreds of nodes. Same disk, fresh directory,
 * removed afterwards outside the timing.
 */
export function timeFloor(parent: string, n: number): Sample {
  const base = mkdtempSync(join(parent, 'orchestra-store-floor-'));
  const journal = openSync(join(base, 'journal.jsonl'), 'a');
  const events = openSync(join(base, 'events.jsonl'), 'a');
  try {
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < n; i++) {
      const dir = join(base, `s${i}`);
      mkdirSync(dir);
      writeFileSync(join(dir, 'status.json'), STATUS_TEXT);
      writeSync(journal, JOURNAL_LINE);
      writeSync(events, EVENTS_LINES);
    }
    const elapsed = performance.now() - started;
    const used = process.cpuUsage(cpu);
    return { micros: (elapsed * 1000) / n, user: used.user / n, system: used.system / n };
  } finally {
    closeSync(journal);
    closeSync(events);
    rmSync(base, { recursive: true, force: true });
  }
}

/** One fan-out run: wall time in ms. */
export interface FanOutSample {
  ms: number;
}

/**
 * Runs the fan-out graph once with the file store and returns its wall time.
 * Throws unless the run succeeds with all `k` branches in `parallel.results`,
 * each a success.
 */
export async function timeFanOut(graph: Graph, k: number, registry: HandlerRegistry, make: StoreMaker): Promise<FanOutSample> {
  const { store, cleanup } = make(`fan-${process.pid}-${runs++}`);
  try {
    const started = performance.now();
    const result = await runPipeline(graph, { registry, store });
    const ms = performance.now() - started;
    const results = result.context['parallel.results'];
    const ok = Array.isArray(results) && results.length === k && results.every((r) => (r as { status?: string }).status === 'success');
    if (result.status !== 'success' || !ok) {
      throw new Error(`fan-out of ${k} ended ${result.status} with ${Array.isArray(results) ? results.length : 'no'} branch results${result.failureReason ? `: ${result.failureReason}` : ''}`);
    }
    return { ms };
  } finally {
    cleanup();
  }
}
