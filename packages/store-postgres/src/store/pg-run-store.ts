import { CheckpointError, OrchestraError, RunLockedError, type RunStore, type StageStore } from '@orchestra/core';
import {
  CheckpointSchema,
  ManifestSchema,
  ProcessRecordSchema,
  checkStageFileName,
  isHolderAlive,
  parseJournalLines,
  parseRecord,
  restartDirectory,
  type Checkpoint,
  type JournalEntry,
  type JournalRead,
  type LeaseHolder,
  type Manifest,
  type ProcessRecord,
  type RunLease,
} from '@orchestra/core/store';
import { EVENTS_CHANNEL, type PostgresDatabase } from '../database/postgres-database.js';
import { acquirePostgresLease, DEFAULT_LEASE_MS, holderOf, readLease, type PostgresLease } from './pg-lease.js';
import { FENCE } from './fence.js';
import { PostgresStage } from './pg-stage.js';

/** Options of a {@link PostgresRunStore}. */
export interface PostgresRunStoreOptions {
  /** How long its lease lasts unless renewed (default {@link DEFAULT_LEASE_MS}). */
  leaseMs?: number;
  /** Commit every journal entry synchronously (survives the database server's crash, not only orchestra's); costs a WAL flush per node. */
  syncEveryNode?: boolean;
}


/** A stored line ends with a line feed, as in a `.jsonl` file: one without it was cut short. */
const LF = '\n';

/** The lines of a line table in order; a last one cut short is dropped and reported. */
function linesOf(rows: readonly { line: string }[]): { lines: string[]; torn: boolean } {
  const last = rows[rows.length - 1];
  const torn = last !== undefined && !last.line.endsWith(LF);
  const kept = torn ? rows.slice(0, -1) : rows;
  return { lines: kept.map((r) => r.line.slice(0, -1)), torn };
}

/** The SQLSTATE of a database error (found in the cause chain of the error it was wrapped in). */
export function sqlState(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}


/** One of a run's line tables: the journal, the events, the interviews. */
type LineTable = 'journal' | 'events' | 'interviews';

/**
 * A run kept in PostgreSQL (tables of the `orchestra` schema, see
 * docs/scale-out.md): the manifest, pipeline copy, checkpoint, pending
 * questions and answers in its `runs` row; the journal, events and
 * interviews as numbered lines; stages and their files; recorded process
 * groups; child runs as rows naming their parent. Passes the run-store
 * conformance suite, as the file store does.
 *
 * The journal's `seq` is unique per run: two workers can never both record
 * the same node visit. From taking the run's lease to releasing it, every
 * write of this store but process records is fenced by the lease's token:
 * once another worker has taken the run over, they fail with
 * `RunLockedError`.
 */
export class PostgresRunStore implements RunStore {
  readonly runId: string;
  readonly location: string;
  private lease: PostgresLease | undefined;
  /** The next line number of each line table, once known (only the lease holder appends). */
  private readonly next = new Map<LineTable, number>();
  private readonly directories = new Set<PostgresStage>();
  /** The stages opened through this store, by node (every visit of a node shares one). */
  private readonly stages = new Map<string, PostgresStage>();

  /**
   * @param key the run's key: its id for a run of the catalogue, `<parent key>/<node>/<name>` for a child run.
   * @param parent the key of the run whose node started it (child runs).
   */
  constructor(
    readonly db: PostgresDatabase,
    readonly key: string,
    readonly parent: string | undefined = undefined,
    private readonly options: PostgresRunStoreOptions = {},
  ) {
    this.runId = key.slice(key.lastIndexOf('/') + 1);
    this.location = `${db.display}/runs/${key}`;
  }

  async create(manifest: Manifest, source: string | undefined): Promise<void> {
    const made = await this.db.query(
      'INSERT INTO orchestra.runs (key, run_id, parent, manifest, source, started_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (key) DO NOTHING',
      [this.key, this.runId, this.parent ?? null, JSON.stringify(manifest), source ?? null, manifest.started_at],
    );
    if (made.rowCount === 1) return;
    const holder = await this.leaseHolder();
    if (holder && isHolderAlive(holder)) throw new RunLockedError(this.location, holder);
    throw new OrchestraError('ORCH_RUN_EXISTS', `${this.location} already holds a run; resume it or choose another id`);
  }

  async exists(): Promise<boolean> {
    return (await this.db.query('SELECT 1 FROM orchestra.runs WHERE key = $1', [this.key])).rowCount === 1;
  }

  /** A column of the run's row; null when the row or the value is missing. */
  private async column(name: 'manifest' | 'source' | 'checkpoint' | 'pending' | 'answers'): Promise<{ value: string | null }> {
    const result = await this.db.query<{ value: string | null }>(`SELECT ${name} AS value FROM orchestra.runs WHERE key = $1`, [this.key]);
    return { value: result.rows[0]?.value ?? null };
  }

  async readManifest(): Promise<Manifest> {
    const { value } = await this.column('manifest');
    if (value === null) throw new CheckpointError(`${this.location} holds no run (no manifest)`);
    return parseRecord(value, ManifestSchema, 'manifest', this.location);
  }

  async readSource(): Promise<string | undefined> {
    return (await this.column('source')).value ?? undefined;
  }

  async readCheckpoint(): Promise<Checkpoint | undefined> {
    const { value } = await this.column('checkpoint');
    return value === null ? undefined : parseRecord(value, CheckpointSchema, 'checkpoint', this.location);
  }

  async writeCheckpoint(checkpoint: Checkpoint): Promise<void> {
    await this.syncDirectories();
    // Committed synchronously: this flushes everything committed before it too (the journal's entries).
    const result = await this.db.query(
      `UPDATE orchestra.runs SET checkpoint = $2, state = $4 FROM (SELECT set_config('synchronous_commit', 'on', true)) AS durable
       WHERE key = $1 AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM orchestra.leases WHERE run_key = $1 AND token = $3))`,
      [this.key, JSON.stringify(checkpoint), this.fence(), checkpoint.status],
    );
    if (result.rowCount === 0) await this.refused('its checkpoint');
  }

  /**
   * The token of the lease this store took and has not released, or null:
   * its writes are fenced by it, so once another process has taken the run
   * over (the token is no longer the lease's) every write is refused.
   */
  private fence(): string | null {
    return this.lease?.held ? this.lease.token : null;
  }

  /** Throws why a write was refused: the lease was taken over, or the run is gone. */
  async refused(what: string): Promise<never> {
    if (!(await this.exists())) throw new CheckpointError(`${this.location} holds no run (no manifest); cannot write ${what}`);
    this.lease?.stop(true);
    const row = await readLease(this.db, this.key);
    throw new RunLockedError(this.location, row ? holderOf(row) : { pid: 1, host: 'unknown', start_time: null, acquired_at: 'unknown' });
  }

  private async readLines(table: LineTable): Promise<{ lines: string[]; torn: boolean }> {
    const result = await this.db.query<{ line: string }>(`SELECT line FROM orchestra.${table} WHERE run_key = $1 ORDER BY n`, [this.key]);
    return linesOf(result.rows);
  }

  /** The number the next line of `table` takes; a line cut short at the end is removed first (as a file store cuts it off). */
  private async nextLine(table: LineTable): Promise<number> {
    const known = this.next.get(table);
    if (known !== undefined) return known;
    const result = await this.db.query<{ n: number; line: string }>(`SELECT n, line FROM orchestra.${table} WHERE run_key = $1 ORDER BY n DESC LIMIT 1`, [this.key]);
    const last = result.rows[0];
    let next = 1;
    if (last && !last.line.endsWith(LF)) {
      await this.db.query(`DELETE FROM orchestra.${table} WHERE run_key = $1 AND n = $2`, [this.key, last.n]);
      next = last.n;
    } else if (last) next = last.n + 1;
    this.next.set(table, next);
    return next;
  }

  async readJournal(): Promise<JournalRead> {
    const { lines, torn } = await this.readLines('journal');
    return parseJournalLines(lines, torn, 'journal entry');
  }

  async appendJournal(entry: JournalEntry): Promise<void> {
    const n = await this.nextLine('journal');
    const line = `${JSON.stringify(entry)}${LF}`;
    let inserted: number;
    try {
      const durable = this.options.syncEveryNode ? `, (SELECT set_config('synchronous_commit', 'on', true)) AS durable` : '';
      const result = await this.db.query(
        `INSERT INTO orchestra.journal (run_key, n, seq, line) SELECT $1, $2, $3, $4 FROM (SELECT 1) AS one${durable}
         WHERE $5::text IS NULL OR EXISTS (SELECT 1 FROM orchestra.leases WHERE run_key = $1 AND token = $5)`,
        [this.key, n, entry.seq, line, this.fence()],
      );
      inserted = result.rowCount ?? 0;
    } catch (error) {
      if (!(await this.alreadyJournaled(error, entry.seq, line))) throw error;
      inserted = 1;
    }
    if (inserted === 0) await this.refused(`step ${entry.seq} to its journal`);
    this.next.set('journal', n + 1);
  }

  /**
   * A unique violation on the journal: our own entry, committed by an
   * attempt whose answer a lost connection swallowed (fine), or the same
   * step written by another worker (the journal's sequence decides: refused).
   */
  private async alreadyJournaled(error: unknown, seq: number, line: string): Promise<boolean> {
    if (sqlState(error) !== '23505') return false;
    const found = await this.db.query<{ line: string }>('SELECT line FROM orchestra.journal WHERE run_key = $1 AND seq = $2', [this.key, seq]);
    if (found.rows[0]?.line === line) return true;
    const row = await readLease(this.db, this.key);
    this.lease?.stop(true);
    throw new RunLockedError(this.location, row ? holderOf(row) : { pid: 1, host: 'unknown', start_time: null, acquired_at: 'unknown' });
  }

  /** Appends numbered lines to a line table (fenced; a retried append of the same lines adds nothing). */
  private async appendLines(table: LineTable, lines: readonly string[], notify: boolean): Promise<void> {
    if (lines.length === 0) return;
    const n = await this.nextLine(table);
    const fence = this.fence();
    const result = await this.db.query<{ added: number }>(
      `WITH put AS (
         INSERT INTO orchestra.${table} (run_key, n, line)
         SELECT $1, $2 + i - 1, l || E'\\n' FROM unnest($3::text[]) WITH ORDINALITY AS t(l, i)
         WHERE ${FENCE('$4')}
         ON CONFLICT DO NOTHING RETURNING 1
       )
       SELECT (SELECT count(*) FROM put)::int AS added${notify ? `, pg_notify('${EVENTS_CHANNEL}', $1)` : ''}`,
      [this.key, n, lines, fence],
    );
    // Fewer lines than given: an earlier attempt stored them (fine), or the run was taken over (refused).
    if ((result.rows[0]?.added ?? 0) < lines.length && fence !== null && (await readLease(this.db, this.key))?.token !== fence) await this.refused(`lines to its ${table}`);
    this.next.set(table, n + lines.length);
  }

  async appendEvents(lines: readonly string[]): Promise<void> {
    await this.appendLines('events', lines, true);
  }

  async readEvents(): Promise<string[]> {
    return (await this.readLines('events')).lines;
  }

  async appendInterview(line: string): Promise<void> {
    await this.appendLines('interviews', [line], false);
  }

  async readInterviews(): Promise<string[]> {
    return (await this.readLines('interviews')).lines;
  }

  private async readDocument(name: 'pending' | 'answers'): Promise<unknown> {
    const { value } = await this.column(name);
    if (value === null) return undefined;
    try {
      return JSON.parse(value) as unknown;
    } catch (error) {
      throw new CheckpointError(`the ${name === 'pending' ? 'pending questions' : 'recorded answers'} of ${this.location} are damaged (not valid JSON)`, { cause: error });
    }
  }

  private async writeDocument(name: 'pending' | 'answers', document: unknown): Promise<void> {
    const result = await this.db.query(`UPDATE orchestra.runs SET ${name} = $2 WHERE key = $1 AND ${FENCE('$3')}`, [this.key, document === undefined ? null : JSON.stringify(document), this.fence()]);
    if (result.rowCount === 0) await this.refused(name === 'pending' ? 'its pending questions' : 'its answers');
  }

  readPendingQuestions(): Promise<unknown> {
    return this.readDocument('pending');
  }

  writePendingQuestions(document: unknown): Promise<void> {
    return this.writeDocument('pending', document);
  }

  readAnswers(): Promise<unknown> {
    return this.readDocument('answers');
  }

  writeAnswers(document: unknown): Promise<void> {
    return this.writeDocument('answers', document);
  }

  async stage(nodeId: string): Promise<StageStore> {
    checkStageFileName(nodeId);
    let stage = this.stages.get(nodeId);
    if (!stage) {
      stage = new PostgresStage(this.db, this.key, nodeId, {
        madeDirectory: (s) => this.directories.add(s),
        fence: () => this.fence(),
        refused: (what) => this.refused(what),
      });
      this.stages.set(nodeId, stage);
    }
    return stage.open();
  }

  async recordProcess(record: ProcessRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO orchestra.processes (run_key, pgid, record) VALUES ($1, $2, $3)
       ON CONFLICT (run_key, pgid) DO UPDATE SET record = EXCLUDED.record, n = DEFAULT`,
      [this.key, record.pgid, JSON.stringify(record)],
    );
  }

  async forgetProcess(pgid: number): Promise<void> {
    await this.db.query('DELETE FROM orchestra.processes WHERE run_key = $1 AND pgid = $2', [this.key, pgid]);
  }

  async listProcesses(): Promise<ProcessRecord[]> {
    const result = await this.db.query<{ record: string }>('SELECT record FROM orchestra.processes WHERE run_key = $1 ORDER BY n', [this.key]);
    return result.rows.map((row) => parseRecord(row.record, ProcessRecordSchema, 'process record', this.location));
  }

  async acquire(): Promise<RunLease> {
    const lease = await acquirePostgresLease(this.db, this.key, this.location, this.options.leaseMs ?? DEFAULT_LEASE_MS);
    this.lease = lease;
    this.next.clear(); // the last holder may have appended since
    return {
      get holder() {
        return lease.holder;
      },
      release: () => lease.release(),
    };
  }

  async leaseHolder(): Promise<LeaseHolder | undefined> {
    const row = await readLease(this.db, this.key);
    return row ? holderOf(row) : undefined;
  }

  /** The lease this store holds, if it took one (for tests and workers: its `lost` flag, stopping its renewals). */
  get heldLease(): PostgresLease | undefined {
    return this.lease;
  }

  successor(): PostgresRunStore {
    return new PostgresRunStore(this.db, restartDirectory(this.key), this.parent, this.options);
  }

  child(nodeId: string, name: string): PostgresRunStore {
    checkStageFileName(nodeId);
    checkStageFileName(name);
    return new PostgresRunStore(this.db, `${this.key}/${nodeId}/${name}`, this.key, this.options);
  }

  /** Calls `listener` when events of this run are appended by any process (LISTEN/NOTIFY; after a reconnection too). */
  watchEvents(listener: () => void): Promise<() => void> {
    return this.db.listen(EVENTS_CHANNEL, (payload) => {
      if (payload === '' || payload === this.key) listener();
    });
  }

  /** Copies what tools wrote in stage directories into the database. */
  private async syncDirectories(): Promise<void> {
    for (const stage of this.directories) await stage.sync();
  }

  async flush(): Promise<void> {
    await this.syncDirectories();
  }

  async close(): Promise<void> {
    for (const stage of [...this.directories]) await stage.closeDirectory();
    this.directories.clear();
    this.next.clear();
  }
}
