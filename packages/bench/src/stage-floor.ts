import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the file store writes for one simulated LLM stage, at the sizes a
 * stage of the engine benchmark's pipeline writes them (seen with strace on
 * such a run): the stage directory, its three files and the journal line.
 */
export const STAGE_FLOOR_WRITES = {
  files: {
    'prompt.md': 'Do step 500 of Measure the engine',
    'response.md': '[Simulated] Response for stage: s500',
    'status.json': `${JSON.stringify({ outcome: 'success', preferred_label: '', suggested_next_ids: [], context_updates: { last_stage: 's500', last_response: '[Simulated] Response for stage: s500' }, notes: 'Stage completed: s500' }, null, 2)}\n`,
  },
  journalLine: `${JSON.stringify({ seq: 502, node: 's500', status: 'success', at: '2026-11-27T00:00:00.000Z', context_updates: { last_stage: 's500', outcome: 'success' }, next: 's501' })}\n`,
} as const;

/** One timed floor run: wall time and CPU per stage, in µs. */
export interface FloorSample {
  micros: number;
  user: number;
  system: number;
}

/**
 * The file-system floor of `stages` simulated LLM stages in a fresh
 * directory under `parent`: per stage `mkdir` of its directory,
 * `writeFileSync` of prompt.md, response.md and status.json, and one
 * `writeSync` of a journal line to a journal file kept open, as the file
 * store does them ({@link STAGE_FLOOR_WRITES}). Nothing else is timed; the
 * directory is removed afterwards.
 */
export function timeStageFloor(parent: string, stages: number): FloorSample {
  const base = mkdtempSync(join(parent, 'orchestra-stage-floor-'));
  const journal = openSync(join(base, 'journal.jsonl'), 'a');
  const files = Object.entries(STAGE_FLOOR_WRITES.files);
  try {
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < stages; i++) {
      const dir = `${base}/s${i}`;
      mkdirSync(dir);
      for (const [name, text] of files) writeFileSync(`${dir}/${name}`, text);
      writeSync(journal, STAGE_FLOOR_WRITES.journalLine);
    }
    const elapsed = performance.now() - started;
    const used = process.cpuUsage(cpu);
    return { micros: (elapsed * 1000) / stages, user: used.user / stages, system: used.system / stages };
  } finally {
    closeSync(journal);
    rmSync(base, { recursive: true, force: true });
  }
}
