import { randomUUID } from 'node:crypto';
import { RunLockedError } from '@orchestra/core';
import { LeaseHolderSchema, hostName, isProcessAlive, ownIdentity, type LeaseHolder, type RunLease } from '@orchestra/core/store';
import type { PostgresDatabase } from '../database/postgres-database.js';

/** How long a lease lasts unless renewed (default): a dead worker's runs are taken over this long after it died. */
export const DEFAULT_LEASE_MS = 30_000;

interface LeaseRow {
  holder: string;
  token: string;
  expires_at: Date;
}

/** The holder a lease row names, with its expiry. */
export function holderOf(row: LeaseRow): LeaseHolder {
  const parsed = LeaseHolderSchema.safeParse(JSON.parse(row.holder));
  const holder: LeaseHolder = parsed.success ? parsed.data : { pid: 1, host: 'unknown', start_time: null, acquired_at: 'unknown' };
  return { ...holder, expires_at: row.expires_at.toISOString() };
}

/** The current lease row of a run, if any. */
export async function readLease(db: PostgresDatabase, key: string): Promise<LeaseRow | undefined> {
  const result = await db.query<LeaseRow>('SELECT holder, token, expires_at FROM orchestra.leases WHERE run_key = $1', [key]);
  return result.rows[0];
}

/**
 * A run's lease in PostgreSQL: a row naming the holder (host, PID, start
 * time, like `run.lock`) with an expiry its holder renews every third of
 * {@link DEFAULT_LEASE_MS}. A holder that dies stops renewing; once the
 * expiry passes (or at once, when it ran on this host and its process is
 * gone), the next `acquire` takes the run over. Writes the holder makes are
 * fenced by the lease's token: after a takeover they fail.
 */
export class PostgresLease implements RunLease {
  private current: LeaseHolder;
  private timer: NodeJS.Timeout | undefined;
  private released = false;
  /** True once a renewal found the lease taken over (or released). */
  lost = false;

  constructor(
    private readonly db: PostgresDatabase,
    readonly key: string,
    readonly token: string,
    holder: LeaseHolder,
    private readonly ttlMs: number,
  ) {
    this.current = holder;
    this.timer = setInterval(() => void this.renew(), Math.max(50, Math.floor(ttlMs / 3)));
    this.timer.unref();
  }

  /** Who holds it (this process), with the expiry of the last renewal. */
  get holder(): LeaseHolder {
    return this.current;
  }

  /** True while it is held: not released, not found taken over. */
  get active(): boolean {
    return !this.released && !this.lost;
  }

  /** True until released: its holder's writes are fenced by its token (after a takeover, refused). */
  get held(): boolean {
    return !this.released;
  }

  /** Pushes the expiry on; marks the lease lost when it was taken over. */
  async renew(): Promise<void> {
    if (this.released || this.lost) return;
    try {
      const result = await this.db.query<{ expires_at: Date }>(
        'UPDATE orchestra.leases SET expires_at = clock_timestamp() + make_interval(secs => $3::float8 / 1000) WHERE run_key = $1 AND token = $2 RETURNING expires_at',
        [this.key, this.token, this.ttlMs],
      );
      const row = result.rows[0];
      if (row) this.current = { ...this.current, expires_at: row.expires_at.toISOString() };
      else if (!this.released) this.stop(true);
    } catch {
      // The database is away: the next renewal tries again (fenced writes fail if someone took over meanwhile).
    }
  }

  /** Stops renewing (a test's simulated death, or the end). */
  stop(lost = false): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (lost) this.lost = true;
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    this.stop();
    // Only our own row: after a takeover it is someone else's.
    await this.db.query('DELETE FROM orchestra.leases WHERE run_key = $1 AND token = $2', [this.key, this.token]);
  }
}

/**
 * Takes run `key`'s lease: inserted when there is none, taken over when the
 * row has expired or names a process of this host that has exited; else
 * {@link RunLockedError} naming the holder.
 */
export async function acquirePostgresLease(db: PostgresDatabase, key: string, location: string, ttlMs = DEFAULT_LEASE_MS): Promise<PostgresLease> {
  const holder: LeaseHolder = { ...ownIdentity(), acquired_at: new Date().toISOString() };
  const token = randomUUID();
  let deadToken = '';
  for (let attempt = 0; attempt < 5; attempt++) {
    const taken = await db.query<{ expires_at: Date }>(
      `INSERT INTO orchestra.leases AS l (run_key, holder, token, expires_at)
       VALUES ($1, $2, $3, clock_timestamp() + make_interval(secs => $4::float8 / 1000))
       ON CONFLICT (run_key) DO UPDATE SET holder = EXCLUDED.holder, token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
       WHERE l.expires_at <= clock_timestamp() OR l.token = $5
       RETURNING expires_at`,
      [key, JSON.stringify(holder), token, ttlMs, deadToken],
    );
    const row = taken.rows[0];
    if (row) return new PostgresLease(db, key, token, { ...holder, expires_at: row.expires_at.toISOString() }, ttlMs);
    const current = await readLease(db, key);
    if (!current) continue; // released in between
    const named = holderOf(current);
    // A holder on this host whose process has exited is gone now, whatever its expiry says.
    if (named.host === hostName() && !isProcessAlive(named.pid, named.start_time, named.host) && deadToken !== current.token) {
      deadToken = current.token;
      continue;
    }
    throw new RunLockedError(location, named);
  }
  const current = await readLease(db, key);
  throw new RunLockedError(location, current ? holderOf(current) : { pid: 1, host: 'unknown', start_time: null, acquired_at: 'unknown' });
}
