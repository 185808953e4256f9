import { isHolderAlive, PendingQuestionsSchema, RecordedAnswersSchema } from '@orchestra/core/store';
import type { PostgresDatabase } from '../database/postgres-database.js';
import { holderOf } from '../store/pg-lease.js';

/** Most runs one sweep queues again (the oldest first); the next sweep takes the rest. */
const SWEEP_LIMIT = 200;

/**
 * The runs of the catalogue that should be going on and that nobody alive
 * drives: not ended, parked or deliberately interrupted (no checkpoint yet,
 * or one that says running), older than `quietMs`, with no lease or one
 * whose holder is gone (it ran out, or names a process of this host that
 * has exited). A worker queues their resume: a run whose worker died (also
 * one that died after taking the run's job and before its lease), or whose
 * driver's machine died. Queuing one that already waits in the queue adds
 * nothing. Child runs are left out: their parent's resume continues them.
 */
export async function runsToRecover(db: PostgresDatabase, quietMs: number): Promise<string[]> {
  const result = await db.query<{ key: string; holder: string | null; token: string | null; expires_at: Date | null }>(
    `SELECT r.key, l.holder, l.token, l.expires_at FROM orchestra.runs r LEFT JOIN orchestra.leases l ON l.run_key = r.key
     WHERE r.parent IS NULL AND (r.state IS NULL OR r.state = 'running') AND r.created_at < clock_timestamp() - make_interval(secs => $1::float8 / 1000)
     ORDER BY r.created_at LIMIT ${SWEEP_LIMIT}`,
    [quietMs],
  );
  const orphans = result.rows
    .filter((row) => row.holder === null || row.token === null || row.expires_at === null || !isHolderAlive(holderOf({ holder: row.holder, token: row.token, expires_at: row.expires_at })))
    .map((row) => row.key);
  return [...orphans, ...(await answeredParkedRuns(db, quietMs))];
}

/**
 * Parked runs whose every pending question has an answer and that nobody
 * drives: their resume was queued when the last answer came, but the job
 * may be gone (it failed to be queued, or waited past pg-boss's retention).
 */
async function answeredParkedRuns(db: PostgresDatabase, quietMs: number): Promise<string[]> {
  const result = await db.query<{ key: string; pending: string; answers: string }>(
    `SELECT r.key, r.pending, r.answers FROM orchestra.runs r LEFT JOIN orchestra.leases l ON l.run_key = r.key
     WHERE r.parent IS NULL AND r.state = 'parked' AND r.answers IS NOT NULL AND r.pending IS NOT NULL AND l.run_key IS NULL
       AND r.created_at < clock_timestamp() - make_interval(secs => $1::float8 / 1000)
     ORDER BY r.created_at LIMIT ${SWEEP_LIMIT}`,
    [quietMs],
  );
  return result.rows.filter((row) => everyQuestionAnswered(row.pending, row.answers)).map((row) => row.key);
}

/** True when the pending questions document's every question has an answer in the answers document. */
function everyQuestionAnswered(pending: string, answers: string): boolean {
  try {
    const questions = PendingQuestionsSchema.parse(JSON.parse(pending)).questions;
    const given = RecordedAnswersSchema.parse(JSON.parse(answers)).answers;
    return questions.length > 0 && questions.every((q) => given[q.id] !== undefined);
  } catch {
    return false; // damaged: a resume would be refused anyway
  }
}

/** Removes the lease of run `key` when nobody alive holds it (a run that ended, or parked, before its dead owner let go). */
export async function clearDeadLease(db: PostgresDatabase, key: string): Promise<void> {
  const result = await db.query<{ holder: string; token: string; expires_at: Date }>('SELECT holder, token, expires_at FROM orchestra.leases WHERE run_key = $1', [key]);
  const row = result.rows[0];
  if (row && !isHolderAlive(holderOf(row))) await db.query('DELETE FROM orchestra.leases WHERE run_key = $1 AND token = $2', [key, row.token]);
}

/**
 * Marks a run a worker refused (its pipeline runs tools and the worker may
 * not, its model is not configured there, its records are damaged): sweeps
 * no longer queue it. Queuing it again (`orchestra resume ID --detach`)
 * tries again; its next checkpoint clears the mark.
 */
export async function markRefused(db: PostgresDatabase, key: string): Promise<void> {
  await db.query("UPDATE orchestra.runs SET state = 'refused' WHERE key = $1 AND (state IS NULL OR state = 'running')", [key]);
}
