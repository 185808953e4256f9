import { FileRunStore, type FileRunStoreOptions } from './file-run-store.js';

/**
 * The store of one run directory named by its path: a run of a
 * `FileRunCatalogue`, or one outside any catalogue (`orchestra resume
 * DIR`, `runPipeline` with `logsRoot`, the readers of a run directory). The
 * one place a path becomes a {@link FileRunStore}.
 */
export function runDirectoryStore(path: string, options: FileRunStoreOptions = {}): FileRunStore {
  return new FileRunStore(path, options);
}
