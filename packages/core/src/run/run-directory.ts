import type { Checkpoint, JournalRead, Manifest } from '../engine/store/records.js';
import { CheckpointError } from '../engine/store/store-errors.js';
import { FileRunStore } from './file-run-store.js';

/**
 * Readers of a run directory for other programs (and tests): the records
 * as {@link FileRunStore} reads them, without taking the run's lease.
 */

/** Reads and checks `checkpoint.json`; a missing one is a {@link CheckpointError} too. */
export function readCheckpoint(logsRoot: string): Checkpoint {
  const checkpoint = new FileRunStore(logsRoot).readCheckpoint();
  if (!checkpoint) throw new CheckpointError(`${logsRoot} has no checkpoint.json (is it an orchestra run directory?)`);
  return checkpoint;
}

/** Reads `journal.jsonl` (a torn last line dropped and reported). */
export function readJournal(logsRoot: string): JournalRead {
  return new FileRunStore(logsRoot).readJournal();
}

/** Reads and checks `manifest.json`. */
export function readManifest(logsRoot: string): Manifest {
  return new FileRunStore(logsRoot).readManifest();
}
