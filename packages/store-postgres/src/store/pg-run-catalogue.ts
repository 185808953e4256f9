import { OrchestraError, RunLockedError, type CreateRunOptions, type RunCatalogue, type RunListing } from '@orchestra/core';
import { checkRunId, isHolderAlive, listRuns, newRunId } from '@orchestra/core/store';
import { PostgresDatabase, type PostgresDatabaseOptions } from '../database/postgres-database.js';
import { PostgresRunStore, type PostgresRunStoreOptions } from './pg-run-store.js';

/** Options of a {@link PostgresRunCatalogue}. */
export interface PostgresRunCatalogueOptions extends PostgresDatabaseOptions, PostgresRunStoreOptions {}

/**
 * The runs of one PostgreSQL database: each a {@link PostgresRunStore}
 * found by its id. `orchestra run|status|answer|resume|serve --store
 * postgres://…` and `orchestra worker` use it. Passes the run-catalogue
 * conformance suite, as the file catalogue does. The schema is brought up
 * to date on first use.
 *
 * @example
 * ```ts
 * const catalogue = new PostgresRunCatalogue('postgres://orchestra@db.internal/orchestra');
 * const supervisor = new RunSupervisor({ catalogue });
 * // ... start, answer, resume runs as with any catalogue
 * await catalogue.close();
 * ```
 */
export class PostgresRunCatalogue implements RunCatalogue {
  readonly db: PostgresDatabase;
  private readonly reserved = new Set<string>();
  private readonly ownsDatabase: boolean;

  /** @param database a PostgreSQL URL (`postgres://user:password@host:port/database`), or a database shared with other catalogues. */
  constructor(
    database: string | PostgresDatabase,
    private readonly options: PostgresRunCatalogueOptions = {},
  ) {
    this.ownsDatabase = typeof database === 'string';
    this.db = typeof database === 'string' ? new PostgresDatabase(database, options) : database;
  }

  /** The database's URL without its password. */
  get location(): string {
    return this.db.display;
  }

  /** The store of run `key` (not checked to exist). */
  store(id: string): PostgresRunStore {
    return new PostgresRunStore(this.db, id, undefined, this.options);
  }

  async create(name: string, options: CreateRunOptions = {}): Promise<PostgresRunStore> {
    await this.db.connect();
    if (options.id !== undefined) {
      checkRunId(options.id);
      const store = this.store(options.id);
      if (await store.exists()) {
        const holder = await store.leaseHolder();
        if (holder && isHolderAlive(holder)) throw new RunLockedError(store.location, holder);
        throw new OrchestraError('ORCH_RUN_EXISTS', `${store.location} already holds a run; resume it or choose another id`);
      }
      return store;
    }
    const base = newRunId(name, options.now);
    let id = base;
    for (let n = 2; this.reserved.has(id) || (await this.store(id).exists()); n += 1) id = `${base}-${n}`;
    this.reserved.add(id);
    return this.store(id);
  }

  async open(id: string): Promise<PostgresRunStore> {
    checkRunId(id);
    const found = await this.db.query('SELECT 1 FROM orchestra.runs WHERE key = $1 AND parent IS NULL', [id]);
    if (found.rowCount !== 1) throw new OrchestraError('ORCH_RUN_NOT_FOUND', `no run ${JSON.stringify(id)} in ${this.location}`);
    return this.store(id);
  }

  async list(): Promise<RunListing[]> {
    const result = await this.db.query<{ key: string }>('SELECT key FROM orchestra.runs WHERE parent IS NULL ORDER BY started_at DESC, run_id DESC');
    return listRuns(result.rows.map((row) => [row.key, this.store(row.key)] as const));
  }

  async remove(id: string): Promise<void> {
    const store = await this.open(id);
    const holder = await store.leaseHolder();
    if (holder && isHolderAlive(holder)) throw new RunLockedError(store.location, holder);
    await this.db.transaction(async (client) => {
      await client.query("DELETE FROM orchestra.runs WHERE key = $1 OR starts_with(key, $1 || '/')", [id]);
      await client.query("DELETE FROM orchestra.leases WHERE run_key = $1 OR starts_with(run_key, $1 || '/')", [id]);
    });
    this.reserved.delete(id);
  }

  /** Closes the database connections (when it opened them). */
  async close(): Promise<void> {
    if (this.ownsDatabase) await this.db.close();
  }
}
