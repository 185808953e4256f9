import type { RunReport } from './run-report.js';
import type { Awaitable, RunStore } from '../engine/store/run-store.js';

/** A run a catalogue lists: its report (as `orchestra status` reads it), or why it cannot be read. */
export type RunListing = { id: string; report: RunReport } | { id: string; problem: string };

/** How {@link RunCatalogue.create} names a new run. */
export interface CreateRunOptions {
  /** The run's id, instead of a new one (`--logs-dir`): refused when the catalogue holds a run by that id (`RunLockedError` while a live process drives it, else `ORCH_RUN_EXISTS`). */
  id?: string;
  /** The time the new id is stamped with (default now). */
  now?: Date;
}

/**
 * Where a front end keeps its runs: one place holding many runs, each a
 * {@link RunStore} found by its id. The file catalogue
 * ({@link FileRunCatalogue}) is a directory of run directories (`orchestra
 * serve --runs-dir`, `.orchestra/runs`); `MemoryRunCatalogue` (in
 * @orchestra/testing) keeps them in memory; a database is another. Every
 * implementation passes `runCatalogueConformance` (@orchestra/testing).
 */
export interface RunCatalogue {
  /** Where the runs are kept (a directory, a URL), for messages. */
  readonly location: string;
  /**
   * The store of a new run of the pipeline named `name`: a new id
   * (`<YYYYMMDD-HHMMSS-mmm>-<name>`, then `-2`, `-3`, ... when taken), unique
   * in this catalogue also among ids handed out and not created yet. Nothing
   * is written until the engine creates the run in it.
   */
  create(name: string, options?: CreateRunOptions): Awaitable<RunStore>;
  /** The store of run `id`; `ORCH_RUN_NOT_FOUND` when the catalogue holds no run by that id. */
  open(id: string): Awaitable<RunStore>;
  /** Every run it holds with its report (newest first); one that cannot be read says why. */
  list(): Awaitable<RunListing[]>;
  /** Deletes run `id` and everything of it; refused (`RunLockedError`) while a live process drives it. */
  remove(id: string): Awaitable<void>;
}
