import { startPostgres, type PostgresServer } from '@orchestra/testing/postgres';
import { afterAll, beforeAll } from 'vitest';

/** A PostgreSQL server for the test file: started before its tests, removed after them. */
export function usePostgres(options: Parameters<typeof startPostgres>[0] = {}): () => PostgresServer {
  let server: PostgresServer | undefined;
  beforeAll(async () => {
    server = await startPostgres(options);
  }, 60_000);
  afterAll(() => server?.dispose());
  return () => {
    if (!server) throw new Error('PostgreSQL has not started');
    return server;
  };
}
