import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { StageStore } from '@orchestra/core';
import { checkStageFileName, openFileStream } from '@orchestra/core/store';
import type { PostgresDatabase } from '../database/postgres-database.js';
import { FENCE } from './fence.js';

/** Texts longer than this (in characters) go in `orchestra.stage_payloads`, keeping `stage_files` rows small. */
export const LARGE_PAYLOAD_CHARS = 64 * 1024;

/** Upserts one stage file (a large text in the payload table, replacing any payload it had), fenced by the lease token $6; says whether it could. */
const WRITE_FILE = `
WITH ok AS (SELECT ${FENCE('$6')} AS yes),
     old AS (SELECT payload FROM orchestra.stage_files WHERE run_key = $1 AND node = $2 AND name = $3 AND payload IS NOT NULL AND (SELECT yes FROM ok)),
     big AS (INSERT INTO orchestra.stage_payloads (run_key, text) SELECT $1, $4::text WHERE $5::boolean AND (SELECT yes FROM ok) RETURNING id),
     put AS (
       INSERT INTO orchestra.stage_files (run_key, node, name, text, payload)
       SELECT $1, $2, $3, CASE WHEN $5::boolean THEN NULL ELSE $4::text END, (SELECT id FROM big) WHERE (SELECT yes FROM ok)
       ON CONFLICT (run_key, node, name) DO UPDATE SET text = EXCLUDED.text, payload = EXCLUDED.payload
     ),
     gone AS (DELETE FROM orchestra.stage_payloads WHERE id IN (SELECT payload FROM old))
SELECT (SELECT yes FROM ok) AS ok`;

/** Removes one stage file and its payload, fenced by the lease token $4. */
const REMOVE_FILE = `
WITH ok AS (SELECT ${FENCE('$4')} AS yes),
     gone AS (DELETE FROM orchestra.stage_files WHERE run_key = $1 AND node = $2 AND name = $3 AND (SELECT yes FROM ok) RETURNING payload),
     freed AS (DELETE FROM orchestra.stage_payloads WHERE id IN (SELECT payload FROM gone WHERE payload IS NOT NULL))
SELECT (SELECT yes FROM ok) AS ok`;

/** What a stage needs of its run store. */
export interface StageHooks {
  /** Told when the stage makes a temporary directory (the store syncs and removes it). */
  madeDirectory(stage: PostgresStage): void;
  /** The store's lease token, fencing writes (null: none held). */
  fence(): string | null;
  /** Throws why a write was refused (the run was taken over). */
  refused(what: string): Promise<never>;
}

/** Opens a stage: creates it if new, and fetches its files, in one statement. */
const OPEN_STAGE = `
WITH made AS (INSERT INTO orchestra.stages (run_key, node) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1)
SELECT (SELECT count(*) FROM made)::int AS made, f.name, coalesce(f.text, p.text) AS text
FROM (SELECT 1) AS one
LEFT JOIN orchestra.stage_files f ON f.run_key = $1 AND f.node = $2
LEFT JOIN orchestra.stage_payloads p ON p.id = f.payload`;

/**
 * One node's stage in PostgreSQL (`orchestra.stage_files`), shared by every
 * visit its run store opens. Opening a visit fetches the stage's files, so
 * reads cost no round trip; every write goes to the database at once. A
 * stage asked for a real {@link StageStore.directory} gets a temporary one
 * holding its files; what is written there (a command's output, files a
 * tool makes) is copied back into the database when its stream ends and
 * whenever the run store syncs (each checkpoint, `flush`, `close`).
 */
export class PostgresStage {
  private dir: string | undefined;
  /** What the database holds for each file, as far as this stage knows. */
  private readonly files = new Map<string, string>();

  constructor(
    private readonly db: PostgresDatabase,
    private readonly runKey: string,
    readonly nodeId: string,
    private readonly hooks: StageHooks,
  ) {
    checkStageFileName(nodeId);
  }

  /** Opens a visit: creates the stage if new and fetches its files (one statement). */
  async open(): Promise<StageStore> {
    const result = await this.db.query<{ made: number; name: string | null; text: string | null }>(OPEN_STAGE, [this.runKey, this.nodeId]);
    if (this.dir === undefined) {
      this.files.clear();
      for (const row of result.rows) if (row.name !== null && row.text !== null) this.files.set(row.name, row.text);
    }
    return new StageVisit(this, (result.rows[0]?.made ?? 0) === 0);
  }

  read(name: string): string | undefined {
    checkStageFileName(name);
    if (this.dir !== undefined) {
      try {
        return readFileSync(join(this.dir, name), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    }
    return this.files.get(name);
  }

  async write(name: string, text: string): Promise<void> {
    checkStageFileName(name);
    if (this.dir !== undefined) writeFileSync(join(this.dir, name), text);
    await this.store(name, text);
  }

  private async store(name: string, text: string): Promise<void> {
    this.files.set(name, text);
    const result = await this.db.query<{ ok: boolean }>(WRITE_FILE, [this.runKey, this.nodeId, name, text, text.length > LARGE_PAYLOAD_CHARS, this.hooks.fence()]);
    if (result.rows[0]?.ok !== true) await this.hooks.refused(`${this.nodeId}/${name}`);
  }

  private async unstore(name: string): Promise<void> {
    this.files.delete(name);
    const result = await this.db.query<{ ok: boolean }>(REMOVE_FILE, [this.runKey, this.nodeId, name, this.hooks.fence()]);
    if (result.rows[0]?.ok !== true) await this.hooks.refused(`${this.nodeId}/${name}`);
  }

  async remove(name: string): Promise<void> {
    checkStageFileName(name);
    if (this.dir !== undefined) rmSync(join(this.dir, name), { force: true });
    await this.unstore(name);
  }

  /** A stream writing a file in the stage's directory; what it wrote is stored when it closes. */
  async openStream(name: string): Promise<Writable> {
    checkStageFileName(name);
    const stream = await openFileStream(this.directory(), name);
    stream.on('close', () => void this.sync().catch(() => {}));
    return stream;
  }

  directory(): string {
    if (this.dir !== undefined) return this.dir;
    const dir = mkdtempSync(join(tmpdir(), `orchestra-stage-${this.nodeId.replace(/[^A-Za-z0-9_.-]/g, '_')}-`));
    for (const [name, text] of this.files) writeFileSync(join(dir, name), text);
    this.dir = dir;
    this.hooks.madeDirectory(this);
    return dir;
  }

  /** Syncs in order: a sync asked while one runs waits for it, then looks again. */
  private syncing: Promise<void> = Promise.resolve();

  /** Copies what changed in the stage's directory (new, changed or removed files) into the database. */
  sync(): Promise<void> {
    const next = this.syncing.then(() => this.syncNow());
    this.syncing = next.catch(() => {});
    return next;
  }

  private async syncNow(): Promise<void> {
    const dir = this.dir;
    if (dir === undefined) return;
    const present = new Set<string>();
    for (const name of readdirSync(dir)) {
      try {
        checkStageFileName(name);
        if (!statSync(join(dir, name)).isFile()) continue;
      } catch {
        continue; // not a name a stage file may have, or gone
      }
      present.add(name);
      const text = readFileSync(join(dir, name), 'utf8');
      if (this.files.get(name) !== text) await this.store(name, text);
    }
    for (const name of [...this.files.keys()]) {
      if (!present.has(name)) await this.unstore(name);
    }
  }

  /** Syncs, then removes the temporary directory (a later `directory()` makes a new one). */
  async closeDirectory(): Promise<void> {
    if (this.dir === undefined) return;
    await this.sync();
    rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}

/** One visit of a {@link PostgresStage}. */
class StageVisit implements StageStore {
  constructor(
    private readonly stage: PostgresStage,
    readonly reused: boolean,
  ) {}

  get nodeId(): string {
    return this.stage.nodeId;
  }

  read(name: string): string | undefined {
    return this.stage.read(name);
  }

  write(name: string, text: string): Promise<void> {
    return this.stage.write(name, text);
  }

  remove(name: string): Promise<void> {
    return this.stage.remove(name);
  }

  openStream(name: string): Promise<Writable> {
    return this.stage.openStream(name);
  }

  directory(): string {
    return this.stage.directory();
  }
}
