import { guardedSetup, isOrchestraError, TOOL_BACKENDS } from '@orchestra/core';
import { escapeControl } from '@orchestra/core/loader';
import { ExitCode } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { abortOnSignals } from '../interrupt.js';
import { modelFlags } from '../model-flags.js';
import { runBackendFactory } from '../run-backend-factory.js';
import { isDatabaseSpec, storeSpec, STORE_ENV } from '../run-store.js';
import { startCliTracing } from '../tracing/cli-tracing.js';

/** Flags of `orchestra worker`. */
export interface WorkerFlags {
  store?: string;
  concurrency?: string;
  allowTools?: boolean;
  model?: string;
  baseUrl?: string;
  backend?: string;
  /** `--lease <seconds>`. */
  lease?: string;
  /** `--otel`: trace the runs it drives (also on when an OTLP endpoint variable is set; docs/tracing.md). */
  otel?: boolean;
}

function positive(text: string | undefined, flag: string, fallback: number, max: number): number | string {
  if (text === undefined) return fallback;
  const value = /^\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
  return value >= 1 && value <= max ? value : `${flag} expects a whole number from 1 to ${max}, got ${JSON.stringify(text)}`;
}

/**
 * `orchestra worker --store postgres://… [--concurrency N]`: executes the
 * runs queued in the database until SIGTERM or Ctrl-C, which park or stop
 * its runs at a safe point, release their leases and queue them for another
 * worker. Exit 0 after a clean stop; 2 for bad flags or a database that
 * cannot be used (one line naming host and port).
 */
export async function workerCommand(flags: WorkerFlags, io: CliIO): Promise<number> {
  const spec = storeSpec(flags);
  if (spec === undefined || !isDatabaseSpec(spec)) {
    io.stderr(`orchestra: a worker takes runs from a PostgreSQL database: give --store postgres://user@host:port/db (or set $${STORE_ENV})\n`);
    return ExitCode.usage;
  }
  const concurrency = positive(flags.concurrency, '--concurrency', 2, 1000);
  const lease = positive(flags.lease, '--lease', 30, 86_400);
  const models = modelFlags(flags);
  for (const problem of [concurrency, lease, models]) {
    if (typeof problem === 'string') {
      io.stderr(`orchestra: ${problem}\n`);
      return ExitCode.usage;
    }
  }
  if (flags.backend !== undefined && !flags.allowTools && TOOL_BACKENDS.has(flags.backend)) {
    io.stderr(`orchestra: --backend ${flags.backend} lets models run commands on this machine: add --allow-tools to run it in a worker\n`);
    return ExitCode.usage;
  }
  const { PostgresRunCatalogue, RunWorker } = await import('@orchestra/store-postgres');
  let catalogue: InstanceType<typeof PostgresRunCatalogue>;
  try {
    catalogue = new PostgresRunCatalogue(spec, { leaseMs: (lease as number) * 1000 });
  } catch (error) {
    if (!isOrchestraError(error)) throw error;
    io.stderr(`orchestra: ${escapeControl(error.message)}\n`);
    return ExitCode.usage;
  }
  const workdir = process.cwd();
  // Traces of the runs it drives, only when asked for (--otel, an OTLP endpoint variable).
  const tracing = await startCliTracing(flags.otel, io);
  const worker = new RunWorker({
    ...(tracing ? { observe: () => tracing.observe() } : {}),
    catalogue,
    concurrency: concurrency as number,
    workdir,
    sweepMs: ((lease as number) * 1000) / 2,
    setup: guardedSetup({ allowTools: flags.allowTools === true, backendFor: runBackendFactory(models as Exclude<typeof models, string>, flags.allowTools === true), workdir }),
    log: (line) => io.stderr(`orchestra worker: ${escapeControl(line, { keepNewlines: false })}\n`),
  });
  try {
    await worker.start();
  } catch (error) {
    await worker.stop(0).catch(() => {});
    await catalogue.close();
    await tracing?.finish();
    if (isOrchestraError(error)) {
      io.stderr(`orchestra: ${escapeControl(error.message)}\n`);
      return ExitCode.usage;
    }
    throw error;
  }
  io.stderr(`orchestra worker: taking runs from ${escapeControl(catalogue.location)} (${concurrency} at a time, pid ${process.pid}); SIGTERM or Ctrl-C stops\n`);
  await new Promise<void>((resolveStop) => {
    const interrupt = abortOnSignals(
      () => process.exit(ExitCode.interrupted),
      () => io.stderr('orchestra worker: stopping: runs park or stop at a safe point and are queued for another worker...\n'),
    );
    interrupt.signal.addEventListener('abort', () => {
      void worker
        .stop()
        .then(() => catalogue.close())
        .then(() => tracing?.finish())
        .finally(() => {
          interrupt.dispose();
          resolveStop();
        });
    });
  });
  io.stderr('orchestra worker: stopped\n');
  return ExitCode.ok;
}
