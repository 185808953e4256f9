import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PostgresRunCatalogue } from '@orchestra/store-postgres';
import { postgresBinaries, startPostgres } from '@orchestra/testing/postgres';
import { onExitCleanup } from './exit-cleanup.js';
import { prepareInsertFloor, timeInsertFloor } from './pg-floor.js';
import { timeStageFloor } from './stage-floor.js';
import { measureGroup, type AsyncCase, type CaseResult } from './store-measure.js';
import { describeFileSystem, type Place } from './store-places.js';
import { countStatements, fileMaker, postgresMaker, simulatedChain, timeSimulatedChain, type SimulatedChain, type StatementCount } from './store-simulated.js';

/** The goal: PostgresRunStore on disk within this factor of FileRunStore on disk, per node of a 1,000-node chain. */
export const POSTGRES_VS_FILE_GOAL = 3;

/** Names of the section's cases (as in progress lines and JSON). */
export const PG_CASES = {
  fileFloor: 'floor: file-system calls only',
  file: 'orchestra + FileRunStore',
  postgres: 'orchestra + PostgresRunStore',
  insertAsync: 'INSERT round trip, synchronous_commit=off',
  insertSync: 'INSERT commit, synchronous_commit=on',
} as const;

/** Synchronous INSERTs per floor run at most (each waits for a WAL flush: on a slow disk, milliseconds). */
const SYNC_FLOOR_INSERTS = 200;

/** The figures of one place (the run directories and the PostgreSQL data directory on the same file system). */
export interface PostgresPlaceResult {
  place: Place;
  /** The server's data directory and its file system. */
  dataDir: string;
  dataFs: string;
  /** µs per chain stage, by case name ({@link PG_CASES}); the INSERT cases in µs per statement. */
  cases: Record<string, CaseResult>;
  /** The database's floor per stage: (statements − synchronous ones) × INSERT round trip + synchronous ones × INSERT commit (medians). */
  postgresFloorMicros: number;
}

/** What {@link runPostgresSection} measured, or why it did not. */
export interface PostgresSectionResult {
  nodes: number;
  skipped?: string;
  /** Round trips of a PostgresRunStore run, counted in an untimed run. */
  statements?: StatementCount;
  places: PostgresPlaceResult[];
}

/** Options of {@link runPostgresSection}. */
export interface PostgresSectionOptions {
  /** Stages in the chain (1,000). */
  nodes: number;
  places: readonly Place[];
  warmup: number;
  runs: number;
  progress: (line: string) => void;
}

/**
 * PostgreSQL beside the file store, on a chain of `nodes` simulated LLM
 * stages: for each place (tmpfs, disk), a throwaway PostgreSQL server with
 * `fsync` on and its data directory there, and in one group (`measureGroup`:
 * warm-up, then the timed runs of each case in turn) the file-system floor,
 * orchestra with `FileRunStore`, orchestra with `PostgresRunStore`, and the
 * database's own floor: single INSERT round trips committed as the store's
 * pool commits them (`synchronous_commit=off`) and as its checkpoints do
 * (`on`). Every server is stopped and removed when it is done, when a run
 * fails and when the benchmark is interrupted.
 */
export async function runPostgresSection(options: PostgresSectionOptions): Promise<PostgresSectionResult> {
  const { nodes, places, warmup, runs, progress } = options;
  if (!postgresBinaries()) return { nodes, skipped: "PostgreSQL is not installed (no initdb on the PATH or in /usr/lib/postgresql/*/bin): install Debian's postgresql package", places: [] };
  const chains = new Map<number, SimulatedChain>();
  const chainOf = (n: number) => chains.get(n) ?? (chains.set(n, simulatedChain(n)), chains.get(n) as SimulatedChain);
  const warmPlace = places.find((p) => p.name === 'tmpfs') ?? (places[0] as Place);
  const warmBase = mkdtempSync(join(warmPlace.dir, 'orchestra-store-pg-warm-'));
  const result: PostgresSectionResult = { nodes, places: [] };
  try {
    for (const place of places) {
      progress(`PostgreSQL beside the file store, ${place.name} (${place.dir}), ${nodes.toLocaleString('en-US')} simulated stages: starting a server (fsync on)`);
      const server = await startPostgres({ fsync: true, parent: place.dir });
      const unregister = onExitCleanup(() => server.dispose());
      const base = mkdtempSync(join(place.dir, 'orchestra-store-pg-bench-'));
      let catalogue: PostgresRunCatalogue | undefined;
      try {
        catalogue = new PostgresRunCatalogue(await server.createDatabase('orchestra_bench'));
        const db = catalogue.db;
        await db.connect();
        await prepareInsertFloor(db);
        const pg = postgresMaker(catalogue);
        result.statements ??= await countStatements(chainOf(nodes), db, pg);
        const files = fileMaker(base);
        const warmFiles = fileMaker(warmBase);
        const cases: AsyncCase[] = [
          { name: PG_CASES.fileFloor, run: async (k) => timeStageFloor(base, k), warm: async (k) => timeStageFloor(warmBase, k) },
          { name: PG_CASES.file, run: (k) => timeSimulatedChain(chainOf(k), files), warm: (k) => timeSimulatedChain(chainOf(k), warmFiles) },
          { name: PG_CASES.postgres, run: (k) => timeSimulatedChain(chainOf(k), pg) },
          { name: PG_CASES.insertAsync, run: (k) => timeInsertFloor(db, k, false), maxWarmupRuns: 1 },
          { name: PG_CASES.insertSync, run: (k) => timeInsertFloor(db, Math.min(k, SYNC_FLOOR_INSERTS), true), maxWarmupRuns: 1 },
        ];
        const measured = await measureGroup(cases, nodes, warmup, runs, progress);
        const byName = Object.fromEntries(measured.map((r) => [r.name, r]));
        const statements = result.statements;
        const asyncInsert = byName[PG_CASES.insertAsync]?.median ?? 0;
        const syncInsert = byName[PG_CASES.insertSync]?.median ?? 0;
        result.places.push({
          place,
          dataDir: server.dir,
          dataFs: describeFileSystem(server.dir),
          cases: byName,
          postgresFloorMicros: (statements.perNode - statements.synchronousPerNode) * asyncInsert + statements.synchronousPerNode * syncInsert,
        });
      } finally {
        await catalogue?.close();
        rmSync(base, { recursive: true, force: true });
        server.dispose();
        unregister();
      }
    }
  } finally {
    rmSync(warmBase, { recursive: true, force: true });
  }
  return result;
}
