import { OrchestraError, StoreUnavailableError } from '@orchestra/core';
import type { DatabaseTarget } from './database-url.js';

/** Network error codes of a server that cannot be reached (or went away). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE', 'ENOENT']);

/** SQLSTATEs of a connection the server ended or cannot serve yet (a restart, a shutdown, too many clients). */
const CONNECTION_STATES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '53300']);

/** True when `error` is a lost or refused connection (worth trying again once the server is back), not a refused statement. */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNREACHABLE.has(code) || CONNECTION_STATES.has(code))) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error|timeout exceeded when trying to connect|not queryable/i.test(error.message);
}

/** The server's address as a message names it: `host:port` (a socket directory as `host/.s.PGSQL.port`). */
export function addressOf(target: DatabaseTarget): string {
  return target.host.startsWith('/') ? `${target.host}/.s.PGSQL.${target.port}` : `${target.host}:${target.port}`;
}

/**
 * The {@link OrchestraError} a failure to reach or use the database amounts
 * to: `ORCH_DB_UNREACHABLE` naming host and port, `ORCH_DB_AUTH` for a
 * refused login (naming the user, never the password), else `ORCH_DB` with
 * the server's message. One line each; the original error is the `cause`.
 */
export function databaseError(error: unknown, target: DatabaseTarget): OrchestraError {
  // Already said (a refusal of ours, such as ORCH_DB_SCHEMA): as it is.
  if (error instanceof OrchestraError) return error;
  const code = (error as { code?: unknown } | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  // 28P01/28000: refused login; a server asking a password none was given for fails in the client (SASL).
  if (code === '28P01' || code === '28000' || /^SASL: |client password must be a string/.test(message)) {
    return new StoreUnavailableError('ORCH_DB_AUTH', `PostgreSQL at ${addressOf(target)} refused the login of user ${JSON.stringify(target.user)} to database ${JSON.stringify(target.database)} (wrong password or no such user); check the URL given with --store or ORCHESTRA_STORE`, { cause: error });
  }
  if (code === '3D000') return new StoreUnavailableError('ORCH_DB', `PostgreSQL at ${addressOf(target)} has no database ${JSON.stringify(target.database)}; create it (createdb ${target.database}) or name another`, { cause: error });
  if (isConnectionError(error)) {
    const why = typeof code === 'string' && UNREACHABLE.has(code) ? code : message.split('\n')[0];
    return new StoreUnavailableError('ORCH_DB_UNREACHABLE', `cannot reach PostgreSQL at ${addressOf(target)} (${why}); is the server running and the address right?`, { cause: error });
  }
  return new StoreUnavailableError('ORCH_DB', `PostgreSQL at ${addressOf(target)}: ${message.split('\n')[0]}`, { cause: error });
}
