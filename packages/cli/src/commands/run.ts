import { dirname, resolve } from 'node:path';
import { RunSupervisor } from '@orchestra/core';
import { defaultLogsRoot } from '@orchestra/core/store';
import { escapeControl, sortDiagnostics, type Diagnostic, type Graph } from '@orchestra/core/loader';
import { cassetteFlagsProblem, openCliCassette, type CassetteFlags } from '../cassette-run.js';
import { cliRun, cliRuns } from '../cli-runs.js';
import { readContextFile } from '../context-file.js';
import { ExitCode } from '../exit-codes.js';
import { formatDiagnostic } from '../format-diagnostics.js';
import type { CliIO } from '../io.js';
import { loadForCommand } from '../load-pipeline-file.js';
import { recordRunOptions } from '../recorded-options.js';
import { execute, setUp } from '../run-execution.js';
import type { RunExtension } from '../run-extension.js';
import type { RunFlags } from '../run-flags.js';
import { openStore, storeSpec } from '../run-store.js';
import { shellCommand } from '../shell-quote.js';
import { reportingUsageErrors } from '../usage-errors.js';

export type { RunExtension } from '../run-extension.js';
export type { RunFlags } from '../run-flags.js';

/** Flags of `run` only. */
export interface RunCommandFlags extends RunFlags, CassetteFlags {
  logsDir?: string;
  /** `--store DIR|postgres://…` (else `$ORCHESTRA_STORE`): where the run is kept, instead of a run directory. */
  store?: string;
  /** `--detach`: queue the run for a worker and print its id (a PostgreSQL store only). */
  detach?: boolean;
  set?: string[];
  /** A JSON object file of initial context values (`--set` wins on a shared key). */
  contextFile?: string;
}

/** Parses `--set key=value` pairs; returns an error message for a malformed one. */
export function parseSets(pairs: readonly string[]): Record<string, string> | string {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const key = eq > 0 ? pair.slice(0, eq).trim() : '';
    if (!key) return `--set expects key=value, got ${JSON.stringify(pair)}`;
    out[key] = pair.slice(eq + 1);
  }
  return out;
}

/** `orchestra run <file>`: loads, validates and runs a pipeline. */
export async function runCommand(file: string, flags: RunCommandFlags, io: CliIO): Promise<number> {
  const initial = await initialContext(flags);
  if (typeof initial === 'string') {
    io.stderr(`orchestra: ${escapeControl(initial)}\n`);
    return ExitCode.usage;
  }
  const loaded = await loadForCommand(file, io);
  if (!loaded) return ExitCode.usage;
  if (!loaded.ok || !loaded.graph) {
    for (const d of sortDiagnostics(loaded.diagnostics)) io.stderr(`${formatDiagnostic(d, file)}\n`);
    io.stderr(`orchestra: ${escapeControl(file, { keepNewlines: false })} is not a valid pipeline; nothing was run\n`);
    return ExitCode.failed;
  }
  return runLoaded({ source: loaded.source, graph: loaded.graph, diagnostics: loaded.diagnostics, file, sourceFile: resolve(file), context: initial }, flags, io);
}

/** The run's initial context from `--context-file` and `--set` (which wins), or what is wrong with them. */
export async function initialContext(flags: Pick<RunCommandFlags, 'set' | 'contextFile'>): Promise<Record<string, unknown> | string> {
  const sets = parseSets(flags.set ?? []);
  if (typeof sets === 'string') return sets;
  const fromFile = flags.contextFile !== undefined ? await readContextFile(flags.contextFile) : {};
  if (typeof fromFile === 'string') return fromFile;
  return { ...fromFile, ...sets };
}

/** A pipeline ready to run: loaded and valid. */
export interface LoadedRun {
  source: string;
  graph: Graph;
  diagnostics: readonly Diagnostic[];
  /** Its name in messages. */
  file: string;
  /** The file it is recorded as coming from (orchestra.yaml is found next to it). */
  sourceFile: string;
  context: Record<string, unknown>;
}

/** Starts a loaded pipeline as `orchestra run` does (warnings printed, the backend set up, Ctrl-C handled), with what `extension` adds. */
export async function runLoaded(run: LoadedRun, flags: RunCommandFlags, io: CliIO, extension?: RunExtension): Promise<number> {
  const { graph, file } = run;
  const cassetteProblem = cassetteFlagsProblem(flags);
  if (cassetteProblem) {
    io.stderr(`orchestra: ${escapeControl(cassetteProblem)}\n`);
    return ExitCode.usage;
  }
  if (!flags.quiet && !flags.json) for (const d of sortDiagnostics(run.diagnostics)) io.stderr(`${formatDiagnostic(d, file)}\n`);
  // A replay's cassette is checked against the pipeline before anything runs.
  const cassette = await openCliCassette(flags, { source: run.source, pipeline: graph.name, sourceFile: run.sourceFile }, io);
  if (typeof cassette === 'string') {
    io.stderr(`orchestra: ${escapeControl(cassette)}\n`);
    return ExitCode.usage;
  }
  const setup = await setUp(graph, run.sourceFile, cassette ? cassette.flags(flags) : flags, extension?.callsModels ?? false, cassette);
  if (typeof setup === 'string') {
    await cassette?.discard();
    io.stderr(`orchestra: ${escapeControl(setup)}\n`);
    return ExitCode.usage;
  }
  const runSetup = async () => {
    const handlers = { ...(extension ? await extension.handlers(setup.backend) : {}), ...cassette?.handlers() };
    return { ...(setup.backend ? { backend: setup.backend } : {}), ...(Object.keys(handlers).length > 0 ? { handlers } : {}) };
  };
  const types = extension ? { handlerTypes: extension.handlerTypes } : {};
  const request = {
    source: run.source,
    graph,
    file,
    sourceFile: run.sourceFile,
    context: run.context,
    options: { ...recordRunOptions(flags), ...(flags.replay !== undefined ? { replay: resolve(flags.replay) } : {}) },
  };
  // --otel is not recorded with the run: the printed resume command repeats it.
  const otelHint = flags.otel ? ['--otel'] : [];
  const spec = storeSpec(flags);
  if (spec === undefined && flags.detach) {
    io.stderr('orchestra: --detach queues the run for workers: name their database with --store postgres://… (or $ORCHESTRA_STORE)\n');
    return ExitCode.usage;
  }
  if (spec !== undefined) {
    if (flags.logsDir) {
      io.stderr('orchestra: use --logs-dir or --store, not both (a store names its runs by id)\n');
      return ExitCode.usage;
    }
    return reportingUsageErrors(io, async () => {
      const store = await openStore(spec);
      try {
        const supervisor = new RunSupervisor({ catalogue: store.catalogue, setup: runSetup, ...types, ...(store.dispatch ? { dispatch: store.dispatch } : {}) });
        if (flags.detach) {
          if (!store.dispatch) {
            io.stderr(`orchestra: --detach needs a PostgreSQL store, where workers take queued runs; ${escapeControl(store.display)} is a directory\n`);
            return ExitCode.usage;
          }
          const { id } = await supervisor.enqueue(request);
          io.stdout(`${id}\n`);
          if (!flags.quiet) io.stderr(`orchestra: queued run ${escapeControl(id)} in ${escapeControl(store.display)}; a worker runs it (orchestra worker). Follow it with:\n  ${shellCommand(['orchestra', 'status', id, ...(flags.store !== undefined ? ['--store', store.display] : [])])}\n`);
          return ExitCode.ok;
        }
        const storeArgs = flags.store !== undefined ? ['--store', store.display] : [];
        return await execute(io, flags, 0, setup, [...storeArgs, ...otelHint], (attach) => supervisor.start(request, attach), { runRef: (id) => id, storeArgs, queuedOnAnswer: store.dispatch !== undefined });
      } finally {
        await store.close();
      }
    });
  }
  // A run directory given: run <name> of its parent; else a new run in .orchestra/runs.
  const target = flags.logsDir ? cliRun(resolve(flags.logsDir), runSetup, types) : { supervisor: cliRuns(dirname(defaultLogsRoot(graph.name)), runSetup, types), id: undefined };
  return execute(io, flags, 0, setup, otelHint, (attach) => target.supervisor.start({ ...request, ...(target.id !== undefined ? { id: target.id } : {}) }, attach));
}

export { resumeCommand, type ResumeCommandFlags } from './resume.js';
