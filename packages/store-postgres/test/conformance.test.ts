import { runCatalogueConformance, runStoreConformance } from '@orchestra/testing/conformance';
import { randomUUID } from 'node:crypto';
import { PostgresDatabase, PostgresRunCatalogue, PostgresRunStore } from '../src/index.js';
import { usePostgres } from './support/postgres.js';

const server = usePostgres();
let shared: PostgresDatabase | undefined;

/** One database for the file: each case gets runs of its own by a fresh key. */
async function database(): Promise<PostgresDatabase> {
  shared ??= new PostgresDatabase(await server().createDatabase());
  return shared;
}

runStoreConformance('PostgresRunStore', async () => {
  const db = await database();
  const store = new PostgresRunStore(db, `conf-${randomUUID()}`);
  return {
    store,
    async tear(s, partial) {
      // What a writer killed mid-append would leave in a file: a last line with no line feed.
      await s.close();
      await db.query("INSERT INTO orchestra.journal (run_key, n, line) SELECT $1, coalesce(max(n), 0) + 1, $2 FROM orchestra.journal WHERE run_key = $1", [s.key, partial]);
    },
    async tearEvents(s, partial) {
      await s.close();
      await db.query("INSERT INTO orchestra.events (run_key, n, line) SELECT $1, coalesce(max(n), 0) + 1, $2 FROM orchestra.events WHERE run_key = $1", [s.key, partial]);
    },
    async crash(s) {
      // The holder dies: it renews no more, and its lease runs out.
      s.heldLease?.stop();
      await db.query("UPDATE orchestra.leases SET expires_at = clock_timestamp() - interval '1 second' WHERE run_key = $1", [s.key]);
    },
    cleanup: () => store.close(),
  };
});

runCatalogueConformance('PostgresRunCatalogue', async () => {
  const catalogue = new PostgresRunCatalogue(await server().createDatabase());
  return { catalogue, cleanup: () => catalogue.close() };
});
