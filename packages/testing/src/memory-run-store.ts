import { rmSync } from 'node:fs';
import { CheckpointError, OrchestraError, RunLockedError, type RunStore, type StageStore } from '@orchestra/core';
import {
  checkStageFileName,
  CheckpointSchema,
  parseJournalLines,
  parseRecord,
  ManifestSchema,
  restartDirectory,
  type Checkpoint,
  type JournalEntry,
  type JournalRead,
  type LeaseHolder,
  type Manifest,
  type ProcessRecord,
  type RunLease,
} from '@orchestra/core/store';
import { LeaseSlot } from './memory-store/memory-lease.js';
import { MemoryStage } from './memory-store/memory-stage.js';
import { LineLog } from './memory-store/line-log.js';

let created = 0;

/** The runs of one root store and its successors, by location: a `loop_restart`'s run is found again by whoever asks. */
type Family = Map<string, MemoryRunStore>;


/**
 * A {@link RunStore} kept in memory, for tests and benchmarks: the engine runs
 * with no disk access except for stages that ask for a real directory (a
 * temporary one, removed by {@link MemoryRunStore.dispose}).
 *
 * Behaves as the file store does (it passes the same conformance suite):
 * records are kept serialized (JSON), so what is read back is a copy, in the
 * JSON form a file would hold; `create` refuses an existing run; the lease has
 * one holder at a time; a torn journal or event line can be simulated
 * ({@link MemoryRunStore.tearJournal}), as can the death of the lease's
 * holder ({@link MemoryRunStore.simulateCrash}).
 *
 * @example
 * ```ts
 * const store = new MemoryRunStore();
 * const result = await runPipeline(graph, { store, backend: simulationBackend });
 * const { entries } = store.readJournal();
 * store.dispose();
 * ```
 */
export class MemoryRunStore implements RunStore {
  readonly runId: string;
  private manifest: string | undefined;
  private source: string | undefined;
  private checkpoint: string | undefined;
  private readonly journal = new LineLog();
  private readonly events = new LineLog();
  private readonly interviewLines: string[] = [];
  private pending: string | undefined;
  private answers: string | undefined;
  private readonly stages = new Map<string, MemoryStage>();
  private readonly tempDirs: string[] = [];
  private readonly processes = new Map<number, string>();
  private readonly lease = new LeaseSlot();
  /** Child runs of this run's nodes, by `<node id>/<name>`. */
  private readonly children = new Map<string, MemoryRunStore>();
  /** This run and the runs continuing it (shared with them). */
  private family: Family;

  /**
   * @param location where the run is said to be (`memory:run-<n>` by default);
   *   its last segment (after `/` or `:`) is the run id.
   */
  constructor(readonly location: string = `memory:run-${++created}`) {
    this.runId = location.split(/[/:]/).pop() || location;
    this.family = new Map([[location, this]]);
  }

  /** Creates the run; refuses an existing one (`RunLockedError` while a live holder has its lease, as the file store does). */
  create(manifest: Manifest, source: string | undefined): void {
    if (this.manifest !== undefined) {
      const holder = this.lease.liveHolder();
      if (holder) throw new RunLockedError(this.location, holder);
      throw new OrchestraError('ORCH_RUN_EXISTS', `${this.location} already holds a run`);
    }
    this.manifest = JSON.stringify(manifest);
    this.source = source;
  }

  exists(): boolean {
    return this.manifest !== undefined;
  }

  readManifest(): Manifest {
    if (this.manifest === undefined) throw new CheckpointError(`${this.location} holds no run (no manifest)`);
    return parseRecord(this.manifest, ManifestSchema, 'manifest', this.location);
  }

  readSource(): string | undefined {
    return this.source;
  }

  readCheckpoint(): Checkpoint | undefined {
    return this.checkpoint === undefined ? undefined : parseRecord(this.checkpoint, CheckpointSchema, 'checkpoint', this.location);
  }

  writeCheckpoint(checkpoint: Checkpoint): void {
    this.checkpoint = JSON.stringify(checkpoint);
  }

  readJournal(): JournalRead {
    const { lines, torn } = this.journal.read();
    return parseJournalLines(lines, torn);
  }

  appendJournal(entry: JournalEntry): void {
    this.journal.append(JSON.stringify(entry));
  }

  appendEvents(lines: readonly string[]): void {
    if (lines.length > 0) this.events.appendAll(lines);
  }

  readEvents(): string[] {
    return this.events.read().lines;
  }

  appendInterview(line: string): void {
    this.interviewLines.push(line);
  }

  /** The recorded question-and-answer lines (`interviews.jsonl` of the file store); a copy. */
  readInterviews(): string[] {
    return this.interviewLines.slice();
  }

  readPendingQuestions(): unknown {
    return this.pending === undefined ? undefined : JSON.parse(this.pending);
  }

  writePendingQuestions(document: unknown): void {
    this.pending = document === undefined ? undefined : JSON.stringify(document);
  }

  readAnswers(): unknown {
    return this.answers === undefined ? undefined : JSON.parse(this.answers);
  }

  writeAnswers(document: unknown): void {
    this.answers = document === undefined ? undefined : JSON.stringify(document);
  }

  stage(nodeId: string): StageStore {
    const known = this.stages.get(nodeId);
    if (known) return known.open(true);
    const stage = new MemoryStage(nodeId, (dir) => this.tempDirs.push(dir));
    this.stages.set(nodeId, stage);
    return stage.open(false);
  }

  recordProcess(record: ProcessRecord): void {
    this.processes.delete(record.pgid); // a re-recorded group goes last, as in the file store
    this.processes.set(record.pgid, JSON.stringify(record));
  }

  forgetProcess(pgid: number): void {
    this.processes.delete(pgid);
  }

  listProcesses(): ProcessRecord[] {
    return [...this.processes.values()].map((text) => JSON.parse(text) as ProcessRecord);
  }

  acquire(): RunLease {
    return this.lease.acquire(this.location);
  }

  leaseHolder(): LeaseHolder | undefined {
    return this.lease.holder();
  }

  /** The run a `loop_restart` continues this one in: `<location>-restart-1`, then `-2`, ...; the same store on every call. */
  successor(): MemoryRunStore {
    const location = restartDirectory(this.location);
    const known = this.family.get(location);
    if (known) return known;
    const next = new MemoryRunStore(location);
    next.family = this.family;
    this.family.set(location, next);
    return next;
  }

  /** The run node `nodeId` started as `name`: `<location>/<nodeId>/<name>`, the same store on every call (its temporary directories go with this one's). */
  child(nodeId: string, name: string): MemoryRunStore {
    checkStageFileName(nodeId);
    checkStageFileName(name);
    const key = `${nodeId}/${name}`;
    const known = this.children.get(key);
    if (known) return known;
    const child = new MemoryRunStore(`${this.location}/${key}`);
    this.children.set(key, child);
    return child;
  }

  flush(): void {}

  close(): void {}

  /**
   * Test hook: appends raw text to the journal as a process killed in the
   * middle of a write leaves it (no final newline): {@link readJournal}
   * reports it torn and drops it; the next {@link appendJournal} cuts it off.
   */
  tearJournal(text: string): void {
    this.journal.tear(text);
  }

  /** Test hook: the same as {@link tearJournal}, for the event lines. */
  tearEvents(text: string): void {
    this.events.tear(text);
  }

  /**
   * Test hook: the lease's holder dies. Its lease becomes stale (still named
   * by {@link leaseHolder}, taken over by the next {@link acquire}); nothing
   * else is lost, as everything stored is durable once stored.
   */
  simulateCrash(): void {
    this.lease.crash();
  }

  /** Removes the temporary stage directories made for this run, its child runs and the runs that continued it. */
  dispose(): void {
    for (const dir of this.tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    for (const child of this.children.values()) child.dispose();
    this.family.get(restartDirectory(this.location))?.dispose();
  }
}
