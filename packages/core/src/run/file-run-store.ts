import { appendFileSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { OrchestraError } from '../errors.js';
import {
  CheckpointSchema,
  ManifestSchema,
  ProcessRecordSchema,
  type Checkpoint,
  type JournalEntry,
  type JournalRead,
  type LeaseHolder,
  type Manifest,
  type ProcessRecord,
} from '../engine/store/records.js';
import type { RunLease, RunStore, StageStore } from '../engine/store/run-store.js';
import { CheckpointError, RunLockedError } from '../engine/store/store-errors.js';
import { parseJournalLines } from '../engine/store/parse-journal.js';
import { isHolderAlive } from '../os/process-identity.js';
import { acquireFileLease, readLockFile } from './file-lease.js';
import { checkStageFileName, openFileStage } from './file-stage-store.js';
import { readJsonFile } from './read-json-file.js';
import { LineAppender, RUN_FILES, createFileExclusive, diskOp, readLines, writeFileAtomic } from './run-files.js';
import { pathProblem } from '../os/path-problem.js';

const ProcessesFileSchema = z.object({ format: z.literal('orchestra.processes/1'), processes: z.array(ProcessRecordSchema) });

/** `YYYYMMDD-HHMMSS-mmm` in UTC, sortable. */
function stamp(date: Date): string {
  const iso = date.toISOString(); // 2026-11-22T03:31:57.123Z
  return `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}-${iso.slice(20, 23)}`;
}

/** Longest pipeline name a default run directory keeps (a name must fit in 255 bytes with the time stamp and `-restart-<n>`). */
export const RUN_NAME_LIMIT = 100;

/** A new run's id: `<YYYYMMDD-HHMMSS-mmm>-<pipeline>`, the name made safe for a file name and cut at {@link RUN_NAME_LIMIT} characters. */
export function newRunId(pipeline: string, now = new Date()): string {
  const name = pipeline.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, RUN_NAME_LIMIT) || 'pipeline';
  return `${stamp(now)}-${name}`;
}

/** The default run directory: `.orchestra/runs/<run id>` under `base` (see {@link newRunId}). */
export function defaultLogsRoot(pipeline: string, base = process.cwd(), now = new Date()): string {
  return join(base, '.orchestra', 'runs', newRunId(pipeline, now));
}

/** The next run directory for a `loop_restart`: `<dir>-restart-1`, then `-restart-2`, ... */
export function restartDirectory(logsRoot: string): string {
  const match = /^(.*)-restart-(\d+)$/.exec(logsRoot);
  return match ? `${match[1]}-restart-${Number(match[2]) + 1}` : `${logsRoot}-restart-1`;
}

/**
 * Files a creation killed before its manifest was in place can leave: its
 * temporary files (the pipeline copy is one until the manifest exists). A
 * `pipeline.dot` of its own is not one: it is somebody's pipeline.
 */
function isCreationLeftover(name: string): boolean {
  return /\.\d+\.(new|tmp)$/.test(name);
}

/** The name the pipeline copy has until the manifest is in place. */
function pendingPipelineName(): string {
  return `${RUN_FILES.pipeline}.${process.pid}.new`;
}

/** Options of a {@link FileRunStore}. */
export interface FileRunStoreOptions {
  /**
   * Flush the journal to disk after every node, not only with each
   * checkpoint. Without it a killed process still loses nothing; with it,
   * neither does a power loss. Costs about one disk flush per node.
   */
  syncEveryNode?: boolean;
}

/**
 * A run kept in a directory, in the format of docs/run-directory.md: the
 * store `orchestra run` and `resume` use. Journal and events are files kept
 * open and appended a line at a time; the checkpoint is replaced atomically;
 * the lease is `run.lock`.
 */
export class FileRunStore implements RunStore {
  readonly runId: string;
  private journal: LineAppender | undefined;
  private events: LineAppender | undefined;
  private processes: ProcessRecord[] | undefined;

  constructor(
    readonly location: string,
    private readonly options: FileRunStoreOptions = {},
  ) {
    this.runId = basename(location);
  }

  private path(name: string): string {
    return join(this.location, name);
  }

  create(manifest: Manifest, source: string | undefined): void {
    // Nothing there is fine (the directory is made); a file there, or on the way to it, is not.
    const problem = pathProblem(this.location, { kind: 'directory', what: 'a directory' });
    if (problem && problem.reason !== 'missing') throw new OrchestraError('ORCH_PATH', `cannot keep the run in ${this.location}: ${problem.message}`);
    let entries: string[] = [];
    try {
      entries = readdirSync(this.location);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (entries.includes(RUN_FILES.manifest) || entries.includes(RUN_FILES.checkpoint)) {
      const holder = this.leaseHolder();
      if (holder && isHolderAlive(holder)) throw new RunLockedError(this.location, holder);
      throw this.exists_();
    }
    // What a creation killed before its manifest leaves behind may be replaced; anything else is not ours.
    if (entries.some((name) => !isCreationLeftover(name))) {
      throw new OrchestraError('ORCH_RUN_EXISTS', `${this.location} is not empty and holds no run; choose an empty or new directory for --logs-dir`);
    }
    diskOp(this.location, () => mkdirSync(this.location, { recursive: true }));
    // The pipeline copy under a temporary name first, then the manifest (the run exists from here), then the copy's
    // own name: a creation killed on the way leaves only temporary files, never a pipeline.dot taken for somebody's.
    const pending = this.path(pendingPipelineName());
    if (source !== undefined) writeFileAtomic(pending, source);
    try {
      createFileExclusive(this.path(RUN_FILES.manifest), `${JSON.stringify(manifest, null, 2)}\n`);
    } catch (error) {
      if (source !== undefined) rmSync(pending, { force: true });
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw this.exists_();
      throw error;
    }
    if (source !== undefined) diskOp(this.location, () => renameSync(pending, this.path(RUN_FILES.pipeline)));
  }

  private exists_(): OrchestraError {
    return new OrchestraError('ORCH_RUN_EXISTS', `${this.location} already holds a run; resume it with \`orchestra resume ${this.location}\` or choose another --logs-dir`);
  }

  exists(): boolean {
    try {
      readFileSync(this.path(RUN_FILES.manifest));
      return true;
    } catch {
      return false;
    }
  }

  readManifest(): Manifest {
    // A file, or nothing, where the run directory should be: say so, not what reading inside it gave.
    const problem = pathProblem(this.location, { kind: 'directory', what: 'a run directory' });
    if (problem) throw new CheckpointError(problem.message);
    const manifest = readJsonFile(this.path(RUN_FILES.manifest), ManifestSchema, 'an orchestra run manifest');
    if (!manifest) throw new CheckpointError(`${this.location} is not an orchestra run directory (no ${RUN_FILES.manifest})`);
    return manifest;
  }

  readSource(): string | undefined {
    try {
      return readFileSync(this.path(RUN_FILES.pipeline), 'utf8');
    } catch {
      // A creation killed between its manifest and renaming the copy leaves the copy under its temporary name.
      const pending = this.entries().find((name) => /^pipeline\.dot\.\d+\.new$/.test(name));
      if (pending === undefined) return undefined;
      try {
        return readFileSync(this.path(pending), 'utf8');
      } catch {
        return undefined;
      }
    }
  }

  private entries(): string[] {
    try {
      return readdirSync(this.location);
    } catch {
      return [];
    }
  }

  readCheckpoint(): Checkpoint | undefined {
    return readJsonFile(this.path(RUN_FILES.checkpoint), CheckpointSchema, 'an orchestra checkpoint');
  }

  writeCheckpoint(checkpoint: Checkpoint): void {
    this.flush();
    writeFileAtomic(this.path(RUN_FILES.checkpoint), `${JSON.stringify(checkpoint)}\n`);
  }

  readJournal(): JournalRead {
    const { lines, torn } = readLines(this.path(RUN_FILES.journal));
    return parseJournalLines(lines, torn, `${RUN_FILES.journal} line`);
  }

  appendJournal(entry: JournalEntry): void {
    this.journal ??= new LineAppender(this.path(RUN_FILES.journal), this.options.syncEveryNode);
    this.journal.append(JSON.stringify(entry));
  }

  appendEvents(lines: readonly string[]): void {
    if (lines.length === 0) return;
    this.events ??= new LineAppender(this.path(RUN_FILES.events));
    this.events.append(lines.join('\n'));
  }

  readEvents(): string[] {
    return readLines(this.path(RUN_FILES.events)).lines;
  }

  appendInterview(line: string): void {
    const path = this.path(RUN_FILES.interviews);
    diskOp(path, () => appendFileSync(path, `${line}\n`));
  }

  readInterviews(): string[] {
    return readLines(this.path(RUN_FILES.interviews)).lines;
  }

  private readDocument(name: string): unknown {
    return readJsonFile(this.path(name), z.unknown(), 'a JSON document');
  }

  private writeDocument(name: string, document: unknown): void {
    if (document === undefined) rmSync(this.path(name), { force: true });
    else writeFileAtomic(this.path(name), `${JSON.stringify(document, null, 2)}\n`);
  }

  readPendingQuestions(): unknown {
    return this.readDocument(RUN_FILES.pendingQuestions);
  }

  writePendingQuestions(document: unknown): void {
    this.writeDocument(RUN_FILES.pendingQuestions, document);
  }

  readAnswers(): unknown {
    return this.readDocument(RUN_FILES.answers);
  }

  writeAnswers(document: unknown): void {
    this.writeDocument(RUN_FILES.answers, document);
  }

  stage(nodeId: string): StageStore {
    return openFileStage(this.location, nodeId);
  }

  listProcesses(): ProcessRecord[] {
    this.processes ??= readJsonFile(this.path(RUN_FILES.processes), ProcessesFileSchema, 'an orchestra process list')?.processes ?? [];
    return this.processes.map((p) => ({ ...p }));
  }

  private writeProcesses(processes: ProcessRecord[]): void {
    this.processes = processes;
    if (processes.length === 0) rmSync(this.path(RUN_FILES.processes), { force: true });
    else writeFileAtomic(this.path(RUN_FILES.processes), `${JSON.stringify({ format: 'orchestra.processes/1', processes }, null, 2)}\n`);
  }

  recordProcess(record: ProcessRecord): void {
    this.writeProcesses([...this.listProcesses().filter((p) => p.pgid !== record.pgid), { ...record }]);
  }

  forgetProcess(pgid: number): void {
    const now = this.listProcesses();
    if (now.some((p) => p.pgid === pgid)) this.writeProcesses(now.filter((p) => p.pgid !== pgid));
  }

  acquire(): RunLease {
    return acquireFileLease(this.path(RUN_FILES.lock), this.location);
  }

  leaseHolder(): LeaseHolder | undefined {
    return readLockFile(this.path(RUN_FILES.lock)) ?? undefined;
  }

  successor(): RunStore {
    return new FileRunStore(restartDirectory(this.location), this.options);
  }

  child(nodeId: string, name: string): FileRunStore {
    checkStageFileName(nodeId);
    checkStageFileName(name);
    return new FileRunStore(join(this.location, nodeId, name), this.options);
  }

  flush(): void {
    this.journal?.sync();
    this.events?.sync();
  }

  close(): void {
    this.flush();
    this.journal?.close();
    this.events?.close();
    this.journal = undefined;
    this.events = undefined;
  }
}
