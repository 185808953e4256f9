import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Checkpoint, JournalRead, Manifest } from '../engine/store/records.js';
import { CheckpointError } from '../engine/store/store-errors.js';
import { runDirectoryStore } from './run-directory-store.js';
import { RUN_FILES } from './run-files.js';

/**
 * Readers of a run directory for other programs (and tests): the records
 * as the file store reads them, without taking the run's lease.
 */

/** Reads and checks `checkpoint.json`; a missing one is a {@link CheckpointError} too. */
export function readCheckpoint(logsRoot: string): Checkpoint {
  const checkpoint = runDirectoryStore(logsRoot).readCheckpoint();
  if (!checkpoint) throw new CheckpointError(`${logsRoot} has no checkpoint.json (is it an orchestra run directory?)`);
  return checkpoint;
}

/** Reads `journal.jsonl` (a torn last line dropped and reported). */
export function readJournal(logsRoot: string): JournalRead {
  return runDirectoryStore(logsRoot).readJournal();
}

/** Reads and checks `manifest.json`. */
export function readManifest(logsRoot: string): Manifest {
  return runDirectoryStore(logsRoot).readManifest();
}

/** The `format` a JSON file declares (its top-level `format` string), if it is one. */
function declaredFormat(path: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const format = (JSON.parse(text) as { format?: unknown } | null)?.format;
    return typeof format === 'string' ? format : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True when `dir` holds an orchestra run: a `manifest.json` or a
 * `checkpoint.json` in orchestra's format. Nothing else counts (a folder
 * holding only a `pipeline.dot` is somebody's folder). Never throws.
 */
export function isRunDirectory(dir: string): boolean {
  return (
    declaredFormat(join(dir, RUN_FILES.manifest))?.startsWith('orchestra.run/') === true ||
    declaredFormat(join(dir, RUN_FILES.checkpoint))?.startsWith('orchestra.checkpoint/') === true
  );
}
