import type { PostgresDatabase } from '@orchestra/store-postgres';
import type { Sample } from './store-measure.js';

/** The floor's table: shaped like the store's journal (a run's key, a line number, the line), in its own schema. */
const FLOOR_TABLE = 'orchestra_bench.floor';

/** A journal line of the size a simulated LLM stage's journal entry has. */
const FLOOR_LINE = `${JSON.stringify({ seq: 502, node: 's500', status: 'success', retries: 0, context: { current_node: 's500', last_stage: 's500', last_response: '[Simulated] Response for stage: s500', outcome: 'success' }, next: 's501' })}\n`;

/** Creates the floor's table in `db` (once; it is left there, the database is thrown away). */
export async function prepareInsertFloor(db: PostgresDatabase): Promise<void> {
  await db.query('CREATE SCHEMA IF NOT EXISTS orchestra_bench');
  await db.query(`CREATE TABLE IF NOT EXISTS ${FLOOR_TABLE} (run_key text NOT NULL, n integer NOT NULL, line text NOT NULL, PRIMARY KEY (run_key, n))`);
}

let floorRuns = 0;

/**
 * The database's floor: `count` single-row INSERTs of a journal-sized line,
 * one after the other, each its own transaction through `db.query` (one
 * round trip and one commit each), as `PostgresRunStore` appends a journal
 * line. With `synchronous` false they commit as the store's pool does
 * (`synchronous_commit=off`: the commit does not wait for the WAL to reach
 * the disk); with `synchronous` true each commit waits for its WAL flush, as
 * the store's checkpoint writes do (the same `set_config` in the statement).
 * Returns µs **per INSERT** (wall time in this process, and its CPU).
 */
export async function timeInsertFloor(db: PostgresDatabase, count: number, synchronous: boolean): Promise<Sample> {
  const key = `floor-${process.pid}-${floorRuns++}`;
  const durable = synchronous ? `, (SELECT set_config('synchronous_commit', 'on', true)) AS durable` : '';
  const insert = `INSERT INTO ${FLOOR_TABLE} (run_key, n, line) SELECT $1, $2, $3 FROM (SELECT 1) AS one${durable}`;
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let n = 1; n <= count; n++) await db.query(insert, [key, n, FLOOR_LINE]);
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu);
  await db.query(`DELETE FROM ${FLOOR_TABLE} WHERE run_key = $1`, [key]);
  return { micros: (elapsed * 1000) / count, user: used.user / count, system: used.system / count };
}
