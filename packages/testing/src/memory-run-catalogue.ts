import { OrchestraError, RunLockedError, type CreateRunOptions, type RunCatalogue, type RunListing } from '@orchestra/core';
import { isHolderAlive, listRuns, newRunId } from '@orchestra/core/store';
import { MemoryRunStore } from './memory-run-store.js';

/**
 * A {@link RunCatalogue} kept in memory, for tests and benchmarks: runs are
 * {@link MemoryRunStore}s (`memory:<name>/<id>`), found by id, with the
 * runs a `loop_restart` continues them in. Passes the catalogue conformance
 * suite, as the file catalogue does.
 */
export class MemoryRunCatalogue implements RunCatalogue {
  private readonly stores = new Map<string, MemoryRunStore>();

  /** @param name names the catalogue in its stores' locations (`memory:<name>/<id>`). */
  constructor(readonly name = 'runs') {}

  get location(): string {
    return `memory:${this.name}`;
  }

  create(pipeline: string, options: CreateRunOptions = {}): MemoryRunStore {
    if (options.id !== undefined) {
      const known = this.find(options.id);
      if (known?.exists()) {
        const holder = known.leaseHolder();
        if (holder && isHolderAlive(holder)) throw new RunLockedError(known.location, holder);
        throw new OrchestraError('ORCH_RUN_EXISTS', `${known.location} already holds a run`);
      }
      return known ?? this.add(options.id);
    }
    const base = newRunId(pipeline, options.now);
    let id = base;
    for (let n = 2; this.find(id) !== undefined; n += 1) id = `${base}-${n}`;
    return this.add(id);
  }

  open(id: string): MemoryRunStore {
    const store = this.find(id);
    if (!store?.exists()) throw new OrchestraError('ORCH_RUN_NOT_FOUND', `no run ${JSON.stringify(id)} in ${this.location}`);
    return store;
  }

  list(): Promise<RunListing[]> {
    return listRuns(this.all().filter(([, store]) => store.exists()));
  }

  remove(id: string): void {
    const store = this.open(id);
    const holder = store.leaseHolder();
    if (holder && isHolderAlive(holder)) throw new RunLockedError(store.location, holder);
    store.dispose();
    this.stores.delete(id);
  }

  /** Removes the temporary stage directories of every run it holds. */
  dispose(): void {
    for (const store of this.stores.values()) store.dispose();
  }

  private add(id: string): MemoryRunStore {
    const store = new MemoryRunStore(`${this.location}/${id}`);
    this.stores.set(id, store);
    return store;
  }

  /** Run `id`: one created here, or one a `loop_restart` of one of them continues in. */
  private find(id: string): MemoryRunStore | undefined {
    const known = this.stores.get(id);
    if (known) return known;
    for (const [, store] of this.all()) if (store.runId === id) return store;
    return undefined;
  }

  /** Every run: those created here and the successors they have. */
  private all(): [string, MemoryRunStore][] {
    const out: [string, MemoryRunStore][] = [];
    for (const store of this.stores.values()) {
      for (let s: MemoryRunStore = store; ; s = s.successor()) {
        out.push([s.runId, s]);
        if (!s.successor().exists()) break;
      }
    }
    return out;
  }
}
