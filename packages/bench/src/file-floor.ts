import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Small files written per stage directory by the floor measurement (prompt.md, preamble.md, response.md, status.json). */
export const FLOOR_FILES = ['prompt.md', 'preamble.md', 'response.md', 'status.json'] as const;

/**
 * The file-system floor of a run: the milliseconds it takes to create
 * `stages` directories with {@link FLOOR_FILES} (a few dozen bytes each,
 * `writeFileSync`) in a fresh directory under `parent`, as an LLM run's
 * stages do. Nothing else is timed; the directory is removed afterwards.
 * On a slow VM disk this is a machine cost, not the engine's.
 */
export function timeFileCreation(parent: string, stages: number): number {
  const base = mkdtempSync(join(parent, 'orchestra-floor-'));
  try {
    const started = performance.now();
    for (let i = 0; i < stages; i++) {
      const dir = join(base, `s${i}`);
      mkdirSync(dir);
      for (const name of FLOOR_FILES) writeFileSync(join(dir, name), `stage s${i}: ${name}\n`);
    }
    return performance.now() - started;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
