import type { Percentiles } from './run-timings.js';
import type { WorkersArgs } from './workers-args.js';
import type { RoundResult } from './workers-summary.js';

/** Where and on what the benchmark ran, for the table's heading. */
export interface WorkersContext {
  node: string;
  cores: number;
  loadAtStart: number[];
  loadAtEnd: number[];
  postgresData: string | undefined;
  fileRuns: string;
  totalSeconds: number;
}

const ms = (v: number) => (v >= 100 ? Math.round(v).toLocaleString('en-US') : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const pair = (p: Percentiles | undefined, second: 'p99' | 'max' = 'p99') => (p ? `${ms(p.p50)} / ${ms(p[second])}` : '—');
const loads = (l: readonly number[]) => l.map((v) => v.toFixed(2)).join(' ');

/** The workers benchmark's table (one row per round) and what its columns mean. */
export function workersTable(rounds: readonly RoundResult[], args: WorkersArgs, c: WorkersContext): string[] {
  const file = rounds.find((r) => r.processes === 1 && r.label.startsWith('file'));
  const lines = [
    `orchestra workers benchmark (node ${c.node}; ${c.cores} cores; load average at start ${loads(c.loadAtStart)}, at end ${loads(c.loadAtEnd)}; ${c.totalSeconds.toFixed(0)} s)`,
    `  ${args.runs.toLocaleString('en-US')} runs of start → n1 … n${args.stages} → exit (simulated LLM stages, options { simulate: true }; ${args.stages + 2} nodes a run), queued in a burst, then ${args.probes} queued one at a time`,
    `  PostgreSQL: one server, fsync on, data in ${c.postgresData ?? '—'}; a fresh database per round; workers: node packages/cli/bin/orchestra.js worker --store URL --concurrency ${args.concurrency}`,
    `  file store: the same runs in this process, a RunSupervisor over a FileRunCatalogue under ${c.fileRuns}, ${args.concurrency} at a time`,
    '',
  ];
  const header = ['setup', 'runs at once', 'wall s', 'nodes/s', '÷ file', 'runs/s', 'enqueue→start p50 / p99 ms', 'per node p50 / p99 ms', 'idle pick-up p50 / max ms', 'enqueue call p50 / p99 ms', 'runs per worker'];
  const widths = [24, 12, 7, 8, 7, 7, 26, 21, 25, 25, 0];
  const row = (cells: string[]) => `  ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ')}`.trimEnd();
  lines.push(row(header));
  for (const r of rounds) {
    lines.push(
      row([
        r.label,
        `${r.processes} × ${r.concurrency}`,
        (r.wallMs / 1000).toFixed(1),
        Math.round(r.nodesPerSecond).toLocaleString('en-US'),
        file ? `×${(r.nodesPerSecond / file.nodesPerSecond).toFixed(2)}` : '—',
        r.runsPerSecond.toFixed(1),
        pair(r.toStart),
        pair(r.perNode),
        pair(r.pickup, 'max'),
        pair(r.enqueue),
        r.perWorker ? r.perWorker.join(' / ') : '—',
      ]),
    );
  }
  lines.push('');
  lines.push('  wall: from the first run asked for to the last run\'s pipeline.completed; nodes/s and runs/s over it (start and exit count as nodes)');
  lines.push('  enqueue→start: from the front end\'s call (enqueue; for the file store: the burst handed to its in-process queue) to the run\'s pipeline.started event (its first checkpoint written);');
  lines.push('    in a burst this is mostly the wait behind the runs queued before it; idle pick-up: the same for a run queued while every worker is idle');
  lines.push('  per node: each run\'s pipeline.completed durationMs ÷ nodes run — the time per node a run saw, with the other runs of its process (and machine) sharing the CPU');
  lines.push('  enqueue call: RunSupervisor.enqueue in the front end (records the run in the database and queues its job); runs per worker: by the workers\' logs');
  const started = rounds.flatMap((r) => (r.workerStartMs ? [`${r.label}: ${r.workerStartMs.map((v) => Math.round(v)).join(', ')}`] : []));
  if (started.length) lines.push(`  worker start (spawn → taking runs, ms): ${started.join('; ')}`);
  return lines;
}
