import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PostgresDatabase, PostgresRunCatalogue, SCHEMA_VERSION } from '../src/index.js';
import { usePostgres } from './support/postgres.js';

const server = usePostgres();

async function closing<T>(db: PostgresDatabase, body: (db: PostgresDatabase) => Promise<T>): Promise<T> {
  try {
    return await body(db);
  } finally {
    await db.close();
  }
}

describe('the schema', () => {
  it('is created on first use, and migrating again (from two processes at once) changes nothing', async () => {
    const url = await server().createDatabase();
    const results = await Promise.all([0, 1, 2].map(() => closing(new PostgresDatabase(url), (db) => db.connect())));
    // One of them applied the steps; the others waited for it and found nothing to do.
    expect(results.map((r) => r?.applied.length).sort()).toEqual([0, 0, MIGRATION_COUNT()]);
    const again = await closing(new PostgresDatabase(url), (db) => db.connect());
    expect(again).toMatchObject({ from: SCHEMA_VERSION, to: SCHEMA_VERSION, applied: [] });
  });

  it('refuses a database at a newer version than this code, changing nothing', async () => {
    const url = await server().createDatabase();
    await closing(new PostgresDatabase(url), async (db) => {
      await db.connect();
      await db.query("INSERT INTO orchestra.schema_migrations (version, name) VALUES ($1, 'from the future')", [SCHEMA_VERSION + 1]);
    });
    const catalogue = new PostgresRunCatalogue(url);
    try {
      await expect(catalogue.list()).rejects.toMatchObject({ code: 'ORCH_DB_SCHEMA', message: expect.stringContaining(`schema version ${SCHEMA_VERSION + 1}, newer than this orchestra knows (${SCHEMA_VERSION})`) });
    } finally {
      await catalogue.close();
    }
  });
});

describe('connection problems, in one line', () => {
  it('an unreachable server names host and port', async () => {
    const db = new PostgresDatabase('postgres://someone:hunter2secret@127.0.0.1:1/db');
    const error = await closing(db, (d) => d.connect().then(() => undefined, (e: unknown) => e));
    expect(error).toMatchObject({ code: 'ORCH_DB_UNREACHABLE' });
    expect((error as Error).message).toMatch(/^cannot reach PostgreSQL at 127\.0\.0\.1:1 \(ECONNREFUSED\)/);
    expect((error as Error).message).not.toContain('hunter2secret');
    expect((error as Error).message).not.toContain('\n');
  });

  it('a wrong password names the user, never the password', async () => {
    const url = await server().createDatabase();
    await closing(new PostgresDatabase(url), async (db) => {
      await db.query("CREATE ROLE careful LOGIN PASSWORD 'right-password'");
    });
    // Password logins for that role (the server trusts the others).
    const hba = join(server().dir, 'data', 'pg_hba.conf');
    const before = readFileSync(hba, 'utf8');
    writeFileSync(hba, `host all careful 127.0.0.1/32 scram-sha-256\n${before}`);
    await closing(new PostgresDatabase(url), (db) => db.query('SELECT pg_reload_conf()'));
    try {
      const target = new URL(url);
      target.username = 'careful';
      target.password = 'wrong-secret-xyz';
      const error = await closing(new PostgresDatabase(target.toString()), (d) => d.connect().then(() => undefined, (e: unknown) => e));
      expect(error).toMatchObject({ code: 'ORCH_DB_AUTH' });
      expect((error as Error).message).toContain('refused the login of user "careful"');
      expect((error as Error).message).not.toContain('wrong-secret-xyz');
      target.password = 'right-password';
      await closing(new PostgresDatabase(target.toString(), { migrate: false }), (d) => d.query('SELECT 1'));
    } finally {
      writeFileSync(hba, before);
      await closing(new PostgresDatabase(url), (db) => db.query('SELECT pg_reload_conf()'));
    }
  });
});

function MIGRATION_COUNT(): number {
  return SCHEMA_VERSION;
}
