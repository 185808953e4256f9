import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { OrchestraError } from '../errors.js';
import { RunLockedError } from '../engine/store/store-errors.js';
import { isHolderAlive } from '../os/process-identity.js';
import { checkStageFileName } from './file-stage-store.js';
import { newRunId, type FileRunStore, type FileRunStoreOptions } from './file-run-store.js';
import { runDirectoryStore } from './run-directory-store.js';
import type { CreateRunOptions, RunCatalogue, RunListing } from './run-catalogue.js';
import { listRuns } from './list-runs.js';
import { RUN_FILES } from './run-files.js';

/** Refuses (`ORCH_RUN_NOT_FOUND`) an id that cannot name a run of a catalogue: one path segment, not `.` or `..`. */
export function checkRunId(id: string): void {
  try {
    checkStageFileName(id);
  } catch {
    throw new OrchestraError('ORCH_RUN_NOT_FOUND', `${JSON.stringify(id)} cannot be a run's id (one path segment, not . or ..)`);
  }
}

/**
 * A directory of run directories (`orchestra serve --runs-dir`,
 * `.orchestra/runs`, `<project>/runs`): run `id` is `<directory>/<id>`, a
 * {@link FileRunStore}. A directory counts as a run once it has its manifest.
 *
 * @example
 * ```ts
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { FileRunCatalogue, loadPipeline, runPipeline, simulationBackend } from '@orchestra/core';
 *
 * const catalogue = new FileRunCatalogue(mkdtempSync(join(tmpdir(), 'runs-')));
 * const { graph, source } = loadPipeline(`digraph Notes {
 *   start [shape=Mdiamond]
 *   exit  [shape=Msquare]
 *   draft [prompt="Draft the notes"]
 *   start -> draft -> exit
 * }`);
 * if (!graph) throw new Error('invalid pipeline');
 *
 * // A run's store: a new id (<time>-Notes) unless one is given.
 * const store = await catalogue.create(graph.name, { id: 'notes-1' });
 * await runPipeline(graph, { store, source, backend: simulationBackend });
 *
 * for (const run of await catalogue.list()) console.log(run.id, 'report' in run ? run.report.state : run.problem);
 * const opened = await catalogue.open('notes-1');
 * console.log(await (await opened.stage('draft')).read('response.md'));
 * await catalogue.remove('notes-1');
 * console.log((await catalogue.list()).length);
 * // Prints:
 * // notes-1 completed
 * // [Simulated] Response for stage: draft
 * // 0
 * ```
 */
export class FileRunCatalogue implements RunCatalogue {
  /** Ids handed out by {@link create} in this process, so two runs started at once get two. */
  private readonly reserved = new Set<string>();

  constructor(
    readonly location: string,
    private readonly options: FileRunStoreOptions = {},
  ) {}

  create(name: string, options: CreateRunOptions = {}): FileRunStore {
    if (options.id !== undefined) {
      checkRunId(options.id);
      const store = this.store(options.id);
      if (store.exists()) {
        const holder = store.leaseHolder();
        if (holder && isHolderAlive(holder)) throw new RunLockedError(store.location, holder);
        throw new OrchestraError('ORCH_RUN_EXISTS', `${store.location} already holds a run; resume it with \`orchestra resume ${store.location}\` or choose another --logs-dir`);
      }
      return store;
    }
    const base = newRunId(name, options.now);
    let id = base;
    for (let n = 2; this.reserved.has(id) || existsSync(join(this.location, id)); n += 1) id = `${base}-${n}`;
    this.reserved.add(id);
    return this.store(id);
  }

  open(id: string): FileRunStore {
    checkRunId(id);
    const store = this.store(id);
    if (!store.exists()) throw new OrchestraError('ORCH_RUN_NOT_FOUND', `no run ${JSON.stringify(id)} in ${this.location}`);
    return store;
  }

  list(): Promise<RunListing[]> {
    return listRuns(this.ids().map((id) => [id, this.store(id)] as const));
  }

  remove(id: string): void {
    const store = this.open(id);
    const holder = store.leaseHolder();
    if (holder && isHolderAlive(holder)) throw new RunLockedError(store.location, holder);
    rmSync(store.location, { recursive: true, force: true });
    this.reserved.delete(id);
  }

  /** The ids of the run directories it holds (those with a manifest). */
  private ids(): string[] {
    let names: string[];
    try {
      names = readdirSync(this.location);
    } catch {
      return [];
    }
    return names.filter((name) => existsSync(join(this.location, name, RUN_FILES.manifest)));
  }

  private store(id: string): FileRunStore {
    return runDirectoryStore(join(this.location, id), this.options);
  }
}

