/**
 * Every `code` an error thrown by `@orchestra/store-postgres` carries:
 * `ORCH_DB_UNREACHABLE` (no connection to the server: host and port named),
 * `ORCH_DB_AUTH` (the login was refused; no secret is printed),
 * `ORCH_DB_SCHEMA` (the database's schema is newer than this orchestra),
 * `ORCH_DB` (anything else the database refused), and the run-store codes
 * every store uses (`ORCH_RUN_EXISTS`, `ORCH_RUN_NOT_FOUND`).
 */
export const STORE_POSTGRES_ERROR_CODES = ['ORCH_DB', 'ORCH_DB_AUTH', 'ORCH_DB_SCHEMA', 'ORCH_DB_UNREACHABLE', 'ORCH_RUN_EXISTS', 'ORCH_RUN_NOT_FOUND'] as const;

/** A `code` of an error thrown by `@orchestra/store-postgres`. */
export type StorePostgresErrorCode = (typeof STORE_POSTGRES_ERROR_CODES)[number];
