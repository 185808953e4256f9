import { join, resolve } from 'node:path';
import { isOrchestraError, simulationBackend, type RunStore } from '@orchestra/core';
import { checkPipelineHash, RUN_FILES, type Manifest } from '@orchestra/core/store';
import { pathProblem } from '@orchestra/core/handlers';
import { escapeControl, loadPipeline, type Graph } from '@orchestra/core/loader';
import { cliRunTarget, type CliRunTarget } from '../cli-runs.js';
import { ExitCode } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { isRecipeGraph, recipeExtension } from '../recipe-extension.js';
import { withRecordedOptions } from '../recorded-options.js';
import { shellCommand } from '../shell-quote.js';
import { execute, resumeFlags, setUp, type Setup } from '../run-execution.js';
import type { RunFlags } from '../run-flags.js';

/**
 * The pipeline a run was started with (its stored copy) and the file it came
 * from (for finding `orchestra.yaml` next to it); undefined when the run has
 * no copy (resume then reports what is missing).
 */
function runPipelineOf(logsRoot: string, source: string | undefined, manifest: Manifest): { graph: Graph; sourceFile: string | undefined } | undefined {
  if (source === undefined) return undefined;
  const loaded = loadPipeline(source, { file: join(logsRoot, RUN_FILES.pipeline) });
  if (!loaded.graph) return undefined;
  return { graph: loaded.graph, sourceFile: manifest.source_file ?? undefined };
}

/** Flags of `resume` only. */
export interface ResumeCommandFlags extends RunFlags {
  /** Run tool commands here instead of the directory the run started in. */
  cwd?: string;
  /** `--store DIR|postgres://…` (else `$ORCHESTRA_STORE`): the run is an id in that store. */
  store?: string;
  /** `--detach`: queue the run for a worker instead of continuing it here (a PostgreSQL store only). */
  detach?: boolean;
}

/**
 * `orchestra resume <logs-dir | run id --store URL>`: continues a run from
 * its checkpoint, with the options it was started with (flags given now
 * replace them) and tools running in the directory it started in (`--cwd`
 * overrides); with `--detach`, queues it for a worker instead.
 */
export async function resumeCommand(logsDir: string, given: ResumeCommandFlags, io: CliIO): Promise<number> {
  let target: CliRunTarget;
  try {
    target = await cliRunTarget(logsDir, given);
  } catch (error) {
    if (!isOrchestraError(error)) throw error;
    io.stderr(`orchestra: ${escapeControl(error.message)}\n`);
    return ExitCode.usage;
  }
  try {
    return await resumeTarget(target, given, io);
  } finally {
    await target.close();
  }
}

async function resumeTarget(target: CliRunTarget, given: ResumeCommandFlags, io: CliIO): Promise<number> {
  if (given.detach) {
    if (!target.dispatch) {
      io.stderr('orchestra: --detach queues the run for workers: name their database with --store postgres://… (or $ORCHESTRA_STORE)\n');
      return ExitCode.usage;
    }
    const report = await target.supervisor().report(target.id);
    if (report.state === 'completed' || report.state === 'failed' || report.state === 'restarted') {
      io.stdout(`orchestra: this run already ended (${report.state}); nothing to resume\n`);
      return ExitCode.ok;
    }
    await target.dispatch.resume(target.id);
    if (!given.quiet) io.stderr(`orchestra: queued run ${escapeControl(target.id)}; a worker continues it${report.owner?.alive ? ` once process ${report.owner.pid} on ${escapeControl(report.owner.host)} lets it go` : ''}\n`);
    return ExitCode.ok;
  }
  let setup: Setup | undefined;
  const reader = target.supervisor(async () => (setup?.backend ? { backend: setup.backend } : {}));
  let manifest: Manifest;
  let store: RunStore;
  let source: string | undefined;
  try {
    store = await reader.store(target.id);
    manifest = await store.readManifest();
    source = await store.readSource();
    // Before anything reads the run's pipeline (its models, its orchestra.yaml): it must be the one the run started with.
    if (source !== undefined) checkPipelineHash(store.location, manifest, source);
  } catch (error) {
    if (!isOrchestraError(error)) throw error;
    io.stderr(`orchestra: ${escapeControl(error.message)}\n`);
    return ExitCode.usage;
  }
  const replayed = replayedFrom(manifest.run_options);
  if (replayed !== undefined) {
    const file = manifest.source_file ?? '<pipeline.dot>';
    io.stderr(`orchestra: this run was replayed from the cassette ${escapeControl(replayed)}; resuming it would call the models the cassette answered for. Replay it again:\n  ${shellCommand(['orchestra', 'run', file, '--replay', replayed])}\n`);
    return ExitCode.usage;
  }
  const { flags, restored } = withRecordedOptions(manifest.run_options, given);
  const chatty = !flags.quiet && !flags.json;
  if (restored.length > 0 && chatty) io.stderr(`orchestra: continuing with the options the run started with: ${escapeControl(restored.join(' '), { keepNewlines: false })}\n`);
  const workdir = given.cwd !== undefined ? resolve(given.cwd) : manifest.workdir;
  const badCwd = given.cwd !== undefined ? pathProblem(workdir as string, { kind: 'directory', what: 'a directory' }) : undefined;
  if (badCwd) {
    io.stderr(`orchestra: ${escapeControl(`--cwd ${given.cwd}: ${badCwd.message}`)}\n`);
    return ExitCode.usage;
  }
  if (given.cwd !== undefined && chatty) io.stderr(`orchestra: ${escapeControl(`tool commands run in ${workdir}${manifest.workdir ? ` (the run started in ${manifest.workdir})` : ''}`, { keepNewlines: false })}\n`);
  const pipeline = runPipelineOf(store.location, source, manifest);
  // A compiled recipe's run needs its handlers, and is refused when the recipe changed since it started.
  const extension = pipeline && isRecipeGraph(pipeline.graph) ? await recipeExtension() : undefined;
  const changed = extension && pipeline ? await extension.resumeProblem?.(pipeline.graph) : undefined;
  if (changed) {
    io.stderr(`orchestra: ${escapeControl(changed)}; start it again with orchestra recipe run, or restore the recipe to resume this run\n`);
    return ExitCode.usage;
  }
  const prepared: Setup | string = pipeline ? await setUp(pipeline.graph, pipeline.sourceFile, flags, extension?.callsModels ?? false) : { defaults: { autoApprove: false }, ...(flags.simulate ? { backend: simulationBackend } : {}) };
  if (typeof prepared === 'string') {
    io.stderr(`orchestra: ${escapeControl(prepared)}\n`);
    return ExitCode.usage;
  }
  setup = prepared;
  const supervisor = extension
    ? target.supervisor(async () => ({ ...(prepared.backend ? { backend: prepared.backend } : {}), handlers: await extension.handlers(prepared.backend) }), { handlerTypes: extension.handlerTypes })
    : reader;
  // The answers the run already used (its interview records): a resumed `--answers` skips them.
  const answered = (await store.readInterviews()).length;
  const storeArgs = target.hint.slice(1);
  return execute(
    io,
    flags,
    answered,
    prepared,
    [...resumeFlags(given), ...storeArgs],
    async (attach) => {
      const run = await supervisor.resume(target.id, { ...attach, ended: 'report', ...(workdir !== undefined ? { workdir } : {}) });
      return {
        ...run,
        done: run.done.then((result) => {
          if (result.alreadyFinished && !flags.json) io.stdout(`orchestra: this run already ended (${result.status}); nothing to resume\n`);
          return result;
        }),
      };
    },
    target.store !== undefined ? { runRef: (id) => id, storeArgs, queuedOnAnswer: target.dispatch !== undefined } : {},
  );
}

/** The cassette a run was replayed from, as its manifest records it. */
function replayedFrom(options: unknown): string | undefined {
  const replay = (options as { replay?: unknown } | undefined)?.replay;
  return typeof replay === 'string' ? replay : undefined;
}
