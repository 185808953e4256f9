import { OrchestraError } from '@orchestra/core';

/** Where a PostgreSQL URL points, without its password (for messages and run locations). */
export interface DatabaseTarget {
  /** The URL as given (with its password, if any): only for connecting, never printed. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
  /** `postgres://user@host:port/database`: the URL with no password and no query. */
  readonly display: string;
}

/** True for a URL that names a PostgreSQL store (`postgres://`, `postgresql://`). */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/**
 * Reads a PostgreSQL URL (`postgres://user:password@host:port/database`; a
 * Unix socket as `?host=/run/postgresql`). Refused with `ORCH_DB` when it is
 * not one; the message never repeats a password.
 */
export function databaseTarget(url: string): DatabaseTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OrchestraError('ORCH_DB', `${JSON.stringify(redactUrl(url))} is not a PostgreSQL URL (postgres://user@host:port/database)`);
  }
  if (!/^postgres(ql)?:$/i.test(parsed.protocol)) throw new OrchestraError('ORCH_DB', `${JSON.stringify(redactUrl(url))} is not a PostgreSQL URL (postgres://user@host:port/database)`);
  const socketHost = parsed.searchParams.get('host');
  const host = socketHost ?? (parsed.hostname.replace(/^\[|\]$/g, '') || 'localhost');
  const port = parsed.port ? Number(parsed.port) : 5432;
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || decodeURIComponent(parsed.username) || 'postgres';
  const user = decodeURIComponent(parsed.username) || process.env['PGUSER'] || process.env['USER'] || 'postgres';
  const shownHost = socketHost ? `${parsed.hostname || 'localhost'}` : parsed.hostname || 'localhost';
  const display = `postgres://${parsed.username ? `${parsed.username}@` : ''}${shownHost}${parsed.port ? `:${parsed.port}` : ''}/${encodeURIComponent(database)}${socketHost ? `?host=${socketHost}` : ''}`;
  return { url, host, port, database, user, display };
}

/** A URL with any password replaced by `***`, for a message about a URL that did not parse. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}
