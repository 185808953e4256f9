import type { RunStore } from '@orchestra/core';
import type { Awaitable } from '@orchestra/core/store';

/**
 * A fresh store for one conformance case, with the hooks the suite needs to
 * simulate what only a crash (or another process) can do to it.
 */
export interface RunStoreFixture<S extends RunStore = RunStore> {
  /** A store with nothing at its location yet. */
  store: S;
  /**
   * Leaves `partial` at the end of the journal without a line end, as a
   * process killed in the middle of an append does. The writer is gone, so
   * the store drops what it had open (the file store: `close()`, then the
   * bytes are appended to `journal.jsonl`).
   */
  tear(store: S, partial: string): Awaitable<void>;
  /** The same as {@link RunStoreFixture.tear}, for the event lines. */
  tearEvents(store: S, partial: string): Awaitable<void>;
  /**
   * The process holding the lease dies: its lease must now be taken over by
   * the next `acquire()` (the file store: `run.lock` names a process that has
   * exited). Nothing else is lost.
   */
  crash(store: S): Awaitable<void>;
  /** Removes what the fixture made (temporary directories). */
  cleanup(): Awaitable<void>;
}

/** Makes the fixture of one conformance case. */
export type RunStoreFactory<S extends RunStore = RunStore> = () => Awaitable<RunStoreFixture<S>>;
