import { isOrchestraError } from '@orchestra/core';
import { escapeControl } from '@orchestra/core/loader';
import { ExitCode } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { isDatabaseSpec, storeSpec, STORE_ENV } from '../run-store.js';

/**
 * `orchestra db migrate --store postgres://…`: brings the database's
 * `orchestra` schema (and pg-boss's) up to date. Safe to run twice and from
 * two machines at once; a database at a newer schema than this orchestra is
 * refused. Exit 0, or 2 with one line saying why.
 */
export async function dbMigrateCommand(flags: { store?: string }, io: CliIO): Promise<number> {
  const spec = storeSpec(flags);
  if (spec === undefined || !isDatabaseSpec(spec)) {
    io.stderr(`orchestra: db migrate works on a PostgreSQL database: give --store postgres://user@host:port/db (or set $${STORE_ENV})\n`);
    return ExitCode.usage;
  }
  const { PostgresDatabase, RunQueue } = await import('@orchestra/store-postgres');
  let db: InstanceType<typeof PostgresDatabase>;
  try {
    db = new PostgresDatabase(spec);
  } catch (error) {
    if (!isOrchestraError(error)) throw error;
    io.stderr(`orchestra: ${escapeControl(error.message)}\n`);
    return ExitCode.usage;
  }
  const queue = new RunQueue(db);
  try {
    const result = await db.connect();
    await queue.start();
    const applied = result?.applied ?? [];
    io.stdout(
      applied.length === 0
        ? `${escapeControl(db.display)}: the orchestra schema is up to date (version ${result?.to ?? '?'})\n`
        : `${escapeControl(db.display)}: orchestra schema ${result?.from ?? 0} -> ${result?.to}: ${applied.map((m) => `${m.version} ${m.name}`).join('; ')}\n`,
    );
    return ExitCode.ok;
  } catch (error) {
    if (isOrchestraError(error)) {
      io.stderr(`orchestra: ${escapeControl(error.message)}\n`);
      return ExitCode.usage;
    }
    throw error;
  } finally {
    await queue.stop();
    await db.close();
  }
}
