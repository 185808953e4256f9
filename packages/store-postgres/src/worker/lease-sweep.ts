import { hostName, isHolderAlive } from '@orchestra/core/store';
import type { PostgresDatabase } from '../database/postgres-database.js';
import { holderOf } from '../store/pg-lease.js';

/**
 * The runs of the catalogue (not child runs: their parent's resume
 * continues them) whose lease is held by nobody alive: it has run out, or
 * it names a process of this host that has exited (found at once, not when
 * its lease runs out). A worker queues their resume.
 */
export async function runsWithDeadOwners(db: PostgresDatabase): Promise<string[]> {
  const result = await db.query<{ run_key: string; holder: string; token: string; expires_at: Date }>(
    `SELECT l.run_key, l.holder, l.token, l.expires_at FROM orchestra.leases l JOIN orchestra.runs r ON r.key = l.run_key
     WHERE r.parent IS NULL AND (l.expires_at <= clock_timestamp() OR l.holder::jsonb ->> 'host' = $1)`,
    [hostName()],
  );
  return result.rows.filter((row) => !isHolderAlive(holderOf(row))).map((row) => row.run_key);
}

/** Removes the lease of run `key` when nobody alive holds it (a run that ended, or parked, before its dead owner let go). */
export async function clearDeadLease(db: PostgresDatabase, key: string): Promise<void> {
  const result = await db.query<{ run_key: string; holder: string; token: string; expires_at: Date }>('SELECT run_key, holder, token, expires_at FROM orchestra.leases WHERE run_key = $1', [key]);
  const row = result.rows[0];
  if (row && !isHolderAlive(holderOf(row))) await db.query('DELETE FROM orchestra.leases WHERE run_key = $1 AND token = $2', [key, row.token]);
}
