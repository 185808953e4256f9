/**
 * @orchestra/store-postgres — runs kept in PostgreSQL: a run catalogue and
 * `RunStore` on `pg` (versioned migrations, leases with an expiry, events
 * announced with LISTEN/NOTIFY), and workers on pg-boss that execute them
 * on any number of machines. See docs/scale-out.md.
 * @packageDocumentation
 */
export { STORE_POSTGRES_ERROR_CODES, type StorePostgresErrorCode } from './store-postgres-error-codes.js';
export { databaseTarget, isPostgresUrl, type DatabaseTarget } from './database/database-url.js';
export { PostgresDatabase, EVENTS_CHANNEL, type PostgresDatabaseOptions } from './database/postgres-database.js';
export { MIGRATIONS, SCHEMA_VERSION, migrate, type Migration, type MigrationResult } from './database/migrations.js';
export { PostgresRunStore, type PostgresRunStoreOptions } from './store/pg-run-store.js';
export { PostgresStage, LARGE_PAYLOAD_CHARS } from './store/pg-stage.js';
export { PostgresLease, DEFAULT_LEASE_MS } from './store/pg-lease.js';
export { PostgresRunCatalogue, type PostgresRunCatalogueOptions } from './store/pg-run-catalogue.js';
export { RunQueue, RUN_QUEUE, JOBS_CHANNEL, CANCEL_CHANNEL, type RunJob, type RunQueueOptions } from './worker/run-queue.js';
export { RunWorker, type RunWorkerOptions } from './worker/run-worker.js';
export { runsToRecover } from './worker/lease-sweep.js';
