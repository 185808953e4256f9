import pg from 'pg';
import { addressOf, databaseError, isConnectionError } from './database-errors.js';
import { databaseTarget, type DatabaseTarget } from './database-url.js';
import { migrate, type MigrationResult } from './migrations.js';

/** Options of a {@link PostgresDatabase}. */
export interface PostgresDatabaseOptions {
  /** Connections in its pool (default 10). */
  poolSize?: number;
  /**
   * How long a statement is tried again while the server cannot be reached,
   * once it has been reached before (a restart, a lost network): default
   * 60 s. The first contact is never retried: a wrong address fails at once.
   */
  reconnectForMs?: number;
  /** Bring the schema up to date on first use (default true; `orchestra db migrate` does it on its own). */
  migrate?: boolean;
}

/** The channel run events are announced on (the payload is the run's key). */
export const EVENTS_CHANNEL = 'orchestra_events';

type Listener = (payload: string) => void;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * One PostgreSQL database holding runs: a connection pool, the schema
 * brought up to date on first use, statements retried across a server
 * restart, and LISTEN/NOTIFY for following events. Errors are
 * {@link OrchestraError}s with codes (`ORCH_DB_UNREACHABLE` naming host and
 * port, `ORCH_DB_AUTH` with no secret, `ORCH_DB_SCHEMA`, `ORCH_DB`).
 *
 * Sessions commit asynchronously (`synchronous_commit=off`): a committed
 * statement survives the orchestra process being killed at once; what only
 * a crash of the database server itself could lose is flushed with each
 * checkpoint, as the file store flushes its journal with each checkpoint.
 */
export class PostgresDatabase {
  readonly target: DatabaseTarget;
  readonly pool: pg.Pool;
  private ready: Promise<MigrationResult | undefined> | undefined;
  private reached = false;
  private listener: pg.Client | undefined;
  private listening: Promise<void> | undefined;
  private readonly listeners = new Map<string, Set<Listener>>();
  private closed = false;

  constructor(
    url: string,
    private readonly options: PostgresDatabaseOptions = {},
  ) {
    this.target = databaseTarget(url);
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 10_000,
      options: '-c synchronous_commit=off',
      application_name: 'orchestra',
    });
    // A server that goes away closes idle connections: the pool drops them, the next statement reconnects.
    this.pool.on('error', () => {});
  }

  /** `postgres://user@host:port/database` (no password). */
  get display(): string {
    return this.target.display;
  }

  /** Connects (once) and brings the schema up to date; the migration's result when this call made it. */
  connect(): Promise<MigrationResult | undefined> {
    this.ready ??= (async () => {
      let client: pg.PoolClient;
      try {
        client = await this.pool.connect();
      } catch (error) {
        this.ready = undefined;
        throw databaseError(error, this.target);
      }
      try {
        this.reached = true;
        return this.options.migrate === false ? undefined : await migrate(client, this.display);
      } catch (error) {
        this.ready = undefined;
        throw databaseError(error, this.target);
      } finally {
        client.release();
      }
    })();
    return this.ready;
  }

  /** Runs one statement (after {@link connect}); tried again while a server that was reached is unreachable. */
  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: readonly unknown[]): Promise<pg.QueryResult<R>> {
    await this.connect();
    return this.retrying(() => this.pool.query<R>(text, values as unknown[]));
  }

  /** Runs `body` in one transaction on one connection (tried again whole after a lost connection). */
  async transaction<T>(body: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    await this.connect();
    return this.retrying(async () => {
      const client = await this.pool.connect();
      try {
        await client.query('BEGIN');
        const result = await body(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    });
  }

  private async retrying<T>(attempt: () => Promise<T>): Promise<T> {
    const giveUpAt = Date.now() + (this.options.reconnectForMs ?? 60_000);
    for (let wait = 100; ; wait = Math.min(wait * 2, 2000)) {
      try {
        return await attempt();
      } catch (error) {
        if (!this.reached || this.closed || !isConnectionError(error) || Date.now() + wait > giveUpAt) throw databaseError(error, this.target);
        await delay(wait);
      }
    }
  }

  /**
   * Calls `listener` with each notification on `channel` (LISTEN on a
   * connection of its own, re-established after a restart; after a
   * reconnection every listener is called with an empty payload, as
   * notifications may have been missed). Returns how to stop.
   */
  async listen(channel: string, listener: Listener): Promise<() => void> {
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
    }
    set.add(listener);
    await this.ensureListening();
    if (set.size === 1) await this.listener?.query(`LISTEN ${pg.escapeIdentifier(channel)}`).catch(() => {});
    return () => {
      set.delete(listener);
    };
  }

  private ensureListening(): Promise<void> {
    this.listening ??= this.openListener().catch((error: unknown) => {
      this.listening = undefined;
      throw databaseError(error, this.target);
    });
    return this.listening;
  }

  private async openListener(): Promise<void> {
    await this.connect();
    const client = new pg.Client({ connectionString: this.target.url, application_name: 'orchestra-listen' });
    client.on('notification', (message) => {
      for (const listener of this.listeners.get(message.channel) ?? []) listener(message.payload ?? '');
    });
    const lost = (): void => {
      if (this.listener !== client) return;
      this.listener = undefined;
      this.listening = undefined;
      client.removeAllListeners('end');
      void client.end().catch(() => {});
      if (!this.closed) void this.relisten();
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect();
    for (const channel of this.listeners.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    this.listener = client;
  }

  /** Reconnects the listening connection after a restart, then tells every listener to look again. */
  private async relisten(): Promise<void> {
    for (let wait = 100; !this.closed; wait = Math.min(wait * 2, 2000)) {
      await delay(wait);
      try {
        await this.ensureListening();
        for (const set of this.listeners.values()) for (const listener of set) listener('');
        return;
      } catch {
        // still down
      }
    }
  }

  /** A one-line description of where it is, for messages: host and port. */
  get address(): string {
    return addressOf(this.target);
  }

  /** Closes its connections. */
  async close(): Promise<void> {
    this.closed = true;
    const listener = this.listener;
    this.listener = undefined;
    if (listener) {
      listener.removeAllListeners('end');
      await listener.end().catch(() => {});
    }
    await this.pool.end().catch(() => {});
  }
}
