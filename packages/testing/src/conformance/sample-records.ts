import type { Checkpoint, JournalEntry, Manifest, ProcessRecord } from '@orchestra/core/store';

/** A valid manifest for run `runId`. */
export function sampleManifest(runId: string): Manifest {
  return {
    format: 'orchestra.run/1',
    run_id: runId,
    pipeline: 'Sample',
    goal: 'conform',
    source_file: null,
    started_at: '2026-01-02T03:04:05.000Z',
    orchestra_version: '0.1.0',
    start_node: 'start',
    restarted_from: null,
    initial_context: { who: 'tester' },
    workdir: '/tmp',
    run_options: { simulate: true },
  };
}

/** Journal entry `seq`: node `n<seq>` succeeded and wrote `k<seq>`. */
export function sampleEntry(seq: number): JournalEntry {
  return { seq, node: `n${seq}`, status: 'success', retries: 0, context: { [`k${seq}`]: seq }, next: `n${seq + 1}`, logs: [`line ${seq}`] };
}

/** A checkpoint after `seq` steps. */
export function sampleCheckpoint(seq: number): Checkpoint {
  const done = Array.from({ length: seq }, (_, i) => `n${i + 1}`);
  return {
    format: 'orchestra.checkpoint/1',
    timestamp: '2026-01-02T03:04:05.000Z',
    status: 'running',
    current_node: done.at(-1) ?? null,
    next_node: `n${seq + 1}`,
    completed_nodes: done,
    node_retries: {},
    node_outcomes: Object.fromEntries(done.map((n) => [n, 'success' as const])),
    total_retries: 0,
    context: { step: seq },
    logs: [],
    journal_seq: seq,
    failure_reason: null,
    restarted_to: null,
    node_progress: {},
  };
}

/** A process record for group `pgid`. */
export function sampleProcess(pgid: number): ProcessRecord {
  return { pgid, start_time: null, host: 'conformance-host', node: `tool${pgid}`, command: `sleep ${pgid}` };
}
