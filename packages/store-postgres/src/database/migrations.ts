import { StoreUnavailableError, type OrchestraError } from '@orchestra/core';
import type pg from 'pg';

/** One step of the schema: applied once, in order, recorded in `orchestra.schema_migrations`. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The schema's history. Append only: a released step is never edited. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'runs, journal, events, stages, leases',
    sql: `
CREATE TABLE orchestra.runs (
  key        text PRIMARY KEY,
  run_id     text NOT NULL,
  parent     text,
  manifest   text NOT NULL,
  source     text,
  checkpoint text,
  pending    text,
  answers    text,
  state      text,
  started_at text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX runs_listed ON orchestra.runs (started_at DESC, run_id DESC) WHERE parent IS NULL;
CREATE INDEX runs_children ON orchestra.runs (parent) WHERE parent IS NOT NULL;
CREATE INDEX runs_unfinished ON orchestra.runs (created_at) WHERE parent IS NULL AND (state IS NULL OR state = 'running');
CREATE TABLE orchestra.journal (
  run_key text NOT NULL REFERENCES orchestra.runs (key) ON DELETE CASCADE,
  n       integer NOT NULL,
  seq     integer,
  line    text NOT NULL,
  PRIMARY KEY (run_key, n)
);
CREATE UNIQUE INDEX journal_seq ON orchestra.journal (run_key, seq);
CREATE TABLE orchestra.events (
  run_key text NOT NULL REFERENCES orchestra.runs (key) ON DELETE CASCADE,
  n       integer NOT NULL,
  line    text NOT NULL,
  PRIMARY KEY (run_key, n)
);
CREATE TABLE orchestra.interviews (
  run_key text NOT NULL REFERENCES orchestra.runs (key) ON DELETE CASCADE,
  n       integer NOT NULL,
  line    text NOT NULL,
  PRIMARY KEY (run_key, n)
);
CREATE TABLE orchestra.stages (
  run_key text NOT NULL REFERENCES orchestra.runs (key) ON DELETE CASCADE,
  node    text NOT NULL,
  PRIMARY KEY (run_key, node)
);
CREATE TABLE orchestra.stage_payloads (
  id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  run_key text NOT NULL REFERENCES orchestra.runs (key) ON DELETE CASCADE,
  text    text NOT NULL
);
CREATE TABLE orchestra.stage_files (
  run_key text NOT NULL REFERENCES orchestra.runs (key) ON DELETE CASCADE,
  node    text NOT NULL,
  name    text NOT NULL,
  text    text,
  payload bigint REFERENCES orchestra.stage_payloads (id) ON DELETE SET NULL,
  PRIMARY KEY (run_key, node, name)
);
CREATE TABLE orchestra.processes (
  run_key text NOT NULL REFERENCES orchestra.runs (key) ON DELETE CASCADE,
  pgid    integer NOT NULL,
  n       bigint GENERATED ALWAYS AS IDENTITY,
  record  text NOT NULL,
  PRIMARY KEY (run_key, pgid)
);
CREATE TABLE orchestra.leases (
  run_key    text PRIMARY KEY,
  holder     text NOT NULL,
  token      text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX leases_expiry ON orchestra.leases (expires_at);
`,
  },
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/** Any 64-bit number: the advisory lock that serializes migrations across processes. */
const MIGRATION_LOCK = 7_240_511_023_119;

/** The database's schema version; undefined when it has no orchestra schema yet. */
async function schemaVersion(client: pg.ClientBase): Promise<number | undefined> {
  const table = await client.query<{ present: boolean }>("SELECT to_regclass('orchestra.schema_migrations') IS NOT NULL AS present");
  if (!table.rows[0]?.present) return undefined;
  const found = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM orchestra.schema_migrations');
  return found.rows[0]?.version ?? 0;
}

function newerSchema(where: string, version: number): OrchestraError {
  return new StoreUnavailableError('ORCH_DB_SCHEMA', `${where} is at schema version ${version}, newer than this orchestra knows (${SCHEMA_VERSION}); upgrade orchestra to use it`);
}

/** What {@link migrate} did. */
export interface MigrationResult {
  /** The version the database was at. */
  from: number;
  /** The version it is at now. */
  to: number;
  /** The steps applied now (none when it was up to date). */
  applied: Migration[];
}

/**
 * Brings the database's `orchestra` schema to {@link SCHEMA_VERSION}, in one
 * transaction under an advisory lock: safe to run twice, and from two
 * processes at once (the second waits, then finds nothing to do). A database
 * at a newer version than this code knows is refused (`ORCH_DB_SCHEMA`),
 * and nothing is changed.
 */
export async function migrate(client: pg.ClientBase, where: string): Promise<MigrationResult> {
  // Up to date (the usual case): nothing is locked or created, so a role with no right to create schemas works.
  const current = await schemaVersion(client);
  if (current !== undefined && current >= SCHEMA_VERSION) {
    if (current > SCHEMA_VERSION) throw newerSchema(where, current);
    return { from: current, to: current, applied: [] };
  }
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE SCHEMA IF NOT EXISTS orchestra');
    await client.query('CREATE TABLE IF NOT EXISTS orchestra.schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
    const found = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM orchestra.schema_migrations');
    const from = found.rows[0]?.version ?? 0;
    if (from > SCHEMA_VERSION) throw newerSchema(where, from);
    const applied = MIGRATIONS.filter((m) => m.version > from);
    for (const migration of applied) {
      await client.query(migration.sql);
      await client.query('INSERT INTO orchestra.schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
    }
    await client.query('COMMIT');
    return { from, to: Math.max(from, SCHEMA_VERSION), applied };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
