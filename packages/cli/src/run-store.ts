import { resolve } from 'node:path';
import { FileRunCatalogue, type RunCatalogue, type RunDispatch } from '@orchestra/core';

/** The environment variable naming the store when `--store` is not given. */
export const STORE_ENV = 'ORCHESTRA_STORE';

/** The store a command names: `--store`, else `$ORCHESTRA_STORE`, else none (run directories as usual). */
export function storeSpec(flags: { store?: string }): string | undefined {
  return flags.store ?? (process.env[STORE_ENV] || undefined);
}

/** True for a PostgreSQL URL. */
export function isDatabaseSpec(spec: string): boolean {
  return /^postgres(ql)?:\/\//i.test(spec);
}

/** A store a command opened: its catalogue, where it hands runs over (a database's queue), and how to close it. */
export interface OpenedStore {
  catalogue: RunCatalogue;
  /** The queue workers take runs from (PostgreSQL stores only). */
  dispatch?: RunDispatch;
  /** The store as messages name it (a URL without its password, or a directory). */
  display: string;
  close(): Promise<void>;
}

/**
 * Opens the store `spec` names: a PostgreSQL URL (`postgres://…`: its
 * catalogue, reached and migrated now, so a wrong address or password fails
 * here with one line, and its queue), else a directory of run directories.
 * `@orchestra/store-postgres` (with `pg` and pg-boss) loads only for a URL.
 */
export async function openStore(spec: string): Promise<OpenedStore> {
  if (!isDatabaseSpec(spec)) {
    const dir = resolve(spec);
    return { catalogue: new FileRunCatalogue(dir), display: dir, close: async () => {} };
  }
  const { PostgresRunCatalogue, RunQueue } = await import('@orchestra/store-postgres');
  const catalogue = new PostgresRunCatalogue(spec);
  try {
    await catalogue.db.connect();
  } catch (error) {
    await catalogue.close();
    throw error;
  }
  const queue = new RunQueue(catalogue.db);
  return {
    catalogue,
    dispatch: queue,
    display: catalogue.location,
    async close() {
      await queue.stop();
      await catalogue.close();
    },
  };
}
