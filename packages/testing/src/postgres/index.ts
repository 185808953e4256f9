/**
 * @orchestra/testing/postgres — a throwaway PostgreSQL server for tests and
 * benchmarks of stores that keep runs in a database.
 * @packageDocumentation
 */
export { freePort, postgresBinaries, startPostgres, type PostgresServer, type StartPostgresOptions } from './postgres-server.js';
