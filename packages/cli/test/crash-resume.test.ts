import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCheckpoint } from '@orchestra/core';
import { orchestra, startOrchestra, tempDir } from './cli-helpers.js';

const PIPELINE = 'fixtures/long-tools.dot';
const KILLS = 8;

interface Final {
  completed: string[];
  context: Record<string, unknown>;
}

function final(dir: string): Final {
  const checkpoint = readCheckpoint(dir);
  expect(checkpoint.status).toBe('completed');
  return { completed: checkpoint.completed_nodes, context: checkpoint.context };
}

/** Completed nodes so far: lines in the journal. */
function journalLength(dir: string): number {
  try {
    return readFileSync(join(dir, 'journal.jsonl'), 'utf8').split('\n').length - 1;
  } catch {
    return 0;
  }
}

/** A deterministic pseudo-random sequence, so a failure can be replayed. */
function lcg(seed: number): () => number {
  let x = seed;
  return () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

describe('crash safety (SIGKILL at random moments)', () => {
  it('every killed run resumes to the uninterrupted result, and the checkpoint is always readable', async () => {
    const reference = join(tempDir(), 'reference');
    expect(orchestra('run', PIPELINE, '--quiet', '--logs-dir', reference).code).toBe(0);
    const expected = final(reference);
    expect(expected.completed).toHaveLength(32);

    const random = lcg(20261122);
    let killedMidRun = 0;
    for (let trial = 0; trial < KILLS; trial++) {
      const dir = join(tempDir(), `crash-${trial}`);
      const run = startOrchestra('run', PIPELINE, '--quiet', '--logs-dir', dir);
      // Kill at a random moment: after a random number of completed nodes, plus a random slice of the next one.
      const after = Math.floor(random() * 31);
      const extra = random() * 25;
      const delay = `${after} nodes + ${Math.round(extra)} ms`;
      while (journalLength(dir) < after && run.child.exitCode === null) await new Promise((r) => setTimeout(r, 2));
      await new Promise((r) => setTimeout(r, extra));
      run.child.kill('SIGKILL');
      const killed = await run.done;
      if (!existsSync(join(dir, 'checkpoint.json'))) continue; // killed before the run began: nothing to resume
      // Whatever the moment, the checkpoint parses and validates.
      expect(() => readCheckpoint(dir), `trial ${trial} killed after ${delay}`).not.toThrow();
      const done = journalLength(dir);
      if (killed.signal === 'SIGKILL' && done < 32) killedMidRun++;

      // Half the trials crash the resume as well.
      if (trial % 2 === 1 && killed.signal === 'SIGKILL') {
        const again = startOrchestra('resume', dir, '--quiet');
        await new Promise((r) => setTimeout(r, 400 + random() * 400));
        again.child.kill('SIGKILL');
        await again.done;
        expect(() => readCheckpoint(dir)).not.toThrow();
      }
      const resumed = orchestra('resume', dir, '--quiet');
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(final(dir), `trial ${trial} killed after ${delay}`).toEqual(expected);
      const journal = readFileSync(join(dir, 'journal.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { seq: number });
      expect(journal.map((e) => e.seq)).toEqual(journal.map((_, i) => i + 1));
    }
    // The test is only meaningful if it really interrupted runs part-way.
    expect(killedMidRun).toBeGreaterThanOrEqual(KILLS - 1);
  }, 120_000);
});
