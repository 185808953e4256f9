import type { Writable } from 'node:stream';
import type { Checkpoint, JournalEntry, JournalRead, LeaseHolder, Manifest, ProcessRecord } from './records.js';

/** A value, or a promise of it: stores may work synchronously (files, memory) or not (a database). */
export type Awaitable<T> = T | Promise<T>;

/**
 * A node's own storage (its stage): `status.json`, prompts, responses,
 * transcripts, logs. Names are plain file names (no `/`, no `..`).
 */
export interface StageStore {
  /** The node this stage belongs to. */
  readonly nodeId: string;
  /** True when the stage existed before this visit (a revisit, or a resumed run). */
  readonly reused: boolean;
  /** A file's text; `undefined` when there is none. */
  read(name: string): Awaitable<string | undefined>;
  /** Writes (replaces) a file. */
  write(name: string, text: string): Awaitable<void>;
  /** Removes a file, if there is one. */
  remove(name: string): Awaitable<void>;
  /**
   * Creates (or empties) a file and gives a stream that writes to it, for
   * output written while it is produced (a command's `stdout.log`). The file
   * exists when this resolves, so a full disk is reported here; write errors
   * are the stream's `error` events.
   */
  openStream(name: string): Awaitable<Writable>;
  /**
   * A real directory holding the stage's files, for what needs a path (tool
   * commands, agent logs). Files written there are the stage's files. A store
   * without directories of its own makes a temporary one on first call.
   */
  directory(): string;
}

/** The owner's hold on a run, from {@link RunStore.acquire}. */
export interface RunLease {
  /** Who holds it (this process). */
  readonly holder: LeaseHolder;
  /** Gives the run up; idempotent. */
  release(): Awaitable<void>;
}

/**
 * Where a run's state lives: the engine reads and writes a run only through
 * this. {@link FileRunStore} is the run directory of docs/run-directory.md;
 * `MemoryRunStore` (in @orchestra/testing) keeps it in memory. A new store
 * (a database, a remote service) implements this interface and passes the
 * conformance suite (`runStoreConformance` in @orchestra/testing).
 *
 * Writes must be durable in order: an entry appended to the journal is never
 * lost while a later checkpoint survives. A crash may cut the last journal
 * entry short ({@link JournalRead.torn}); nothing else may be half-written.
 */
export interface RunStore {
  /** Where the run is kept, for messages and for tools (`$ORCHESTRA_LOGS_DIR`): a directory path, a URL, ... */
  readonly location: string;
  /** The run's id. */
  readonly runId: string;

  /**
   * Creates the run with its manifest and pipeline source, exclusively:
   * throws `RunLockedError` when the location holds a run a live process
   * drives, else (code `ORCH_RUN_EXISTS`) when it holds a run or, for stores
   * with a place of their own, anything else. The engine calls it before any
   * other write.
   */
  create(manifest: Manifest, source: string | undefined): Awaitable<void>;
  /** True when the location holds a run (a manifest). */
  exists(): Awaitable<boolean>;
  /** The manifest; throws `CheckpointError` when there is none or it is damaged. */
  readManifest(): Awaitable<Manifest>;
  /** The pipeline source the run was started with, if it was given. */
  readSource(): Awaitable<string | undefined>;

  /** The last checkpoint; `undefined` when none was written yet. Throws `CheckpointError` when damaged. */
  readCheckpoint(): Awaitable<Checkpoint | undefined>;
  /** Replaces the checkpoint atomically (readers see the old or the new one). Makes earlier journal entries durable first. */
  writeCheckpoint(checkpoint: Checkpoint): Awaitable<void>;

  /** The journal's entries in order (a torn last entry dropped and reported). */
  readJournal(): Awaitable<JournalRead>;
  /**
   * Appends one entry; when this returns the entry survives the process
   * being killed. A torn last entry left by a crashed writer is cut off
   * first, so the new one starts clean.
   */
  appendJournal(entry: JournalEntry): Awaitable<void>;

  /** Appends serialized run events (`events.jsonl` lines; a torn last line left by a crash is cut off first). */
  appendEvents(lines: readonly string[]): Awaitable<void>;
  /** The recorded event lines (a torn last one dropped). */
  readEvents(): Awaitable<string[]>;
  /** Appends a question-and-answer record (`interviews.jsonl`), durably at once. */
  appendInterview(line: string): Awaitable<void>;
  /** The question-and-answer records, in order. */
  readInterviews(): Awaitable<string[]>;

  /** The pending questions document of a parked run (JSON), if any. */
  readPendingQuestions(): Awaitable<unknown>;
  /** Replaces (or with `undefined` removes) the pending questions document. */
  writePendingQuestions(document: unknown): Awaitable<void>;
  /** The recorded answers document (JSON), if any. */
  readAnswers(): Awaitable<unknown>;
  /** Replaces (or with `undefined` removes) the recorded answers document. */
  writeAnswers(document: unknown): Awaitable<void>;

  /** The stage of a node, created if it does not exist. */
  stage(nodeId: string): Awaitable<StageStore>;

  /** Records a process group before its command runs. */
  recordProcess(record: ProcessRecord): Awaitable<void>;
  /** Forgets a process group that has exited. */
  forgetProcess(pgid: number): Awaitable<void>;
  /** Process groups recorded and not forgotten: what a dead owner may have left running. */
  listProcesses(): Awaitable<ProcessRecord[]>;

  /**
   * Takes the run's exclusive lease for this process; throws
   * `RunLockedError` naming the holder when another live process has it.
   * A lease whose holder is gone is taken over.
   */
  acquire(): Awaitable<RunLease>;
  /** The current holder, if any (alive or not); reading needs no lease. */
  leaseHolder(): Awaitable<LeaseHolder | undefined>;

  /**
   * The store of the run a `loop_restart` continues this one in (created by
   * the engine when the restart happens). Stable: every call, in any
   * process, names the same run, so a resume finds the run a restart began.
   */
  successor(): RunStore;
  /**
   * The store of a child run that node `nodeId` started (a sub-pipeline, a
   * manager loop's child), named `name` (one path segment, stable for the
   * visit that made it, so a resumed parent finds the child again). Kept by
   * this store, wherever it keeps runs: the file store puts it in
   * `<run dir>/<nodeId>/<name>`. Nothing is created until the child run is.
   */
  child(nodeId: string, name: string): RunStore;
  /**
   * Optional, for stores shared by processes that can announce changes (a
   * database's notifications): calls `listener` whenever events may have
   * been appended to this run, by any process; resolves to how to stop.
   * Followers of a run another process drives read its events when told,
   * instead of polling the store.
   */
  watchEvents?(listener: () => void): Promise<() => void>;
  /** Makes everything written so far durable (journal and events). */
  flush(): Awaitable<void>;
  /** Flushes and releases what the store holds open (files); the store may be reopened by calling it again. */
  close(): Awaitable<void>;
}
