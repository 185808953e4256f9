import { dirname, join, resolve } from 'node:path';
import {
  AutoApproveInterviewer,
  ConsoleInterviewer,
  RunSupervisor,
  isOrchestraError,
  QueueInterviewer,
  type Interviewer,
  ValidationError,
  simulationBackend,
  type CodergenBackend,
  type RunAttachment,
  type RunResult,
  type RunStore,
  type SupervisedRun,
} from '@orchestra/core';
import { checkPipelineHash, RUN_FILES, defaultLogsRoot, readPendingQuestions, type Manifest } from '@orchestra/core/store';
import { killRunningTools, pathProblem } from '@orchestra/core/handlers';
import { escapeControl, sortDiagnostics } from '@orchestra/core/loader';
import { loadPipeline, type Diagnostic, type Graph } from '@orchestra/core/loader';
import type { LoadedConfig } from '@orchestra/llm/config';
import { cliRun, cliRunTarget, cliRuns, type CliRunTarget } from '../cli-runs.js';
import { openStore, storeSpec } from '../run-store.js';
import { reportingUsageErrors } from '../usage-errors.js';
import { isRecipeGraph, recipeExtension } from '../recipe-extension.js';
import type { RunExtension } from '../run-extension.js';
export type { RunExtension } from '../run-extension.js';
import { ExitCode } from '../exit-codes.js';
import { readAnswersFile } from '../answers-file.js';
import { loadForCommand } from '../load-pipeline-file.js';
import { formatDiagnostic } from '../format-diagnostics.js';
import { abortOnSignals } from '../interrupt.js';
import { inputOf, stderrStreamOf, type CliIO } from '../io.js';
import { createRunRenderer, type RenderMode } from '../render/run-renderer.js';
import { parkedMessage } from '../render/parked-message.js';
import { shellCommand } from '../shell-quote.js';
import { hasLlmStages, hasRunConfig, loadRunConfig, modelBackend } from '../llm-backend.js';
import { modelFlags } from '../model-flags.js';
import type { RunFlags } from '../run-flags.js';
import { readContextFile } from '../context-file.js';
import { recordRunOptions, withRecordedOptions } from '../recorded-options.js';

import { phasedModeOf } from '../run-flags.js';
export type { RunFlags } from '../run-flags.js';

/** Flags of `run` only. */
export interface RunCommandFlags extends RunFlags {
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

function modeOf(flags: RunFlags): RenderMode {
  return flags.json ? 'json' : flags.quiet ? 'quiet' : 'normal';
}

function exitCodeOf(result: RunResult): number {
  if (result.status === 'success') return ExitCode.ok;
  if (result.status === 'interrupted') return ExitCode.interrupted;
  if (result.status === 'parked') return ExitCode.parked;
  return ExitCode.failed;
}

/** Who answers the run's questions (after the answers recorded in the run), and the console when it is the one asking (it also shows streamed agent replies). */
interface Asking {
  questions: Interviewer | 'park';
  console?: ConsoleInterviewer;
  close: () => void;
}

/** What the configuration says about asking (`interviewer` in orchestra.yaml). */
interface AskingDefaults {
  autoApprove: boolean;
  timeoutMs?: number;
}

/**
 * Who answers the run's questions, as the flags say: auto-approve, a queue
 * from `--answers`, the console, or (`--park`) nobody: the run parks. The
 * supervisor gives answers recorded with `orchestra answer` first.
 */
async function interviewerFor(flags: RunFlags, answered: number, defaults: AskingDefaults, io: CliIO): Promise<Asking | string> {
  if ([flags.autoApprove, flags.answers, flags.park].filter(Boolean).length > 1) return 'use only one of --auto-approve, --answers and --park';
  if (flags.park) return { questions: 'park', close: () => {} };
  if (flags.autoApprove) return { questions: new AutoApproveInterviewer(), close: () => {} };
  if (flags.answers) {
    const answers = await readAnswersFile(flags.answers);
    // On resume, the answers the run already used are skipped: the file is the whole script.
    return typeof answers === 'string' ? answers : { questions: new QueueInterviewer(answers.slice(answered)), close: () => {} };
  }
  if (defaults.autoApprove) return { questions: new AutoApproveInterviewer(), close: () => {} };
  // Questions go to stderr: stdout carries the stage lines (or JSON events with --json).
  const console = new ConsoleInterviewer({ input: inputOf(io), output: await stderrStreamOf(io), ...(defaults.timeoutMs !== undefined ? { defaultTimeoutMs: defaults.timeoutMs } : {}) });
  return { questions: console, console, close: () => console.close() };
}

/** What a run needs besides the pipeline: the configuration and the backend for its LLM stages. */
interface Setup {
  defaults: AskingDefaults;
  backend?: CodergenBackend;
}

/**
 * Loads `orchestra.yaml` and picks the LLM backend: the simulation with
 * `--simulate`, none for a pipeline without LLM stages, else the model
 * backend (LangChain is loaded only then). A bad flag or configuration is an
 * error message (exit 2).
 */
async function setUp(graph: Graph, pipelineFile: string | undefined, flags: RunFlags, callsModels = false): Promise<Setup | string> {
  const models = modelFlags(flags);
  if (typeof models === 'string') return models;
  if (flags.simulate && Object.keys(models).length > 0) return 'use --model, --base-url and --backend without --simulate (a simulated run calls no model)';
  const needsModels = !flags.simulate && (callsModels || hasLlmStages(graph));
  let config: LoadedConfig;
  try {
    if (!needsModels && !(await hasRunConfig(pipelineFile))) return { defaults: { autoApprove: false }, ...(flags.simulate ? { backend: simulationBackend } : {}) };
    config = await loadRunConfig(pipelineFile);
  } catch (error) {
    if (isOrchestraError(error)) return error.message;
    throw error;
  }
  const { interviewerSettings, simulationWithRoles } = await import('@orchestra/llm/config');
  const defaults = interviewerSettings(config);
  // Simulated: conferences and recipe steps play the configured roles (their tiers and contracts).
  if (!needsModels) return { defaults, ...(flags.simulate ? { backend: simulationWithRoles(config) } : {}) };
  return { defaults, backend: await modelBackend(config, models) };
}

/**
 * The flags to repeat when continuing a run (`orchestra resume ...`), one
 * argument each: those given to this resume (a run records the flags it
 * started with, so `orchestra resume <dir>` alone continues it the same way).
 */
function resumeFlags(flags: RunFlags): string[] {
  const args: string[] = [];
  if (flags.simulate) args.push('--simulate');
  if (flags.model) args.push('--model', flags.model);
  if (flags.baseUrl) args.push('--base-url', flags.baseUrl);
  if (flags.backend) args.push('--backend', flags.backend);
  if (flags.park) args.push('--park');
  return args;
}

/** Starts (or resumes) the run through its supervisor, taking part as `attach` says. */
type Launch = (attach: RunAttachment) => Promise<SupervisedRun>;

/** Runs the launched run with Ctrl-C handling and the renderer; maps errors to exit codes. */
async function execute(
  io: CliIO,
  flags: RunFlags,
  answered: number,
  setup: Setup,
  /** Flags a printed `orchestra resume` command repeats. */
  hintFlags: string[],
  launch: Launch,
  /** How printed commands name the run (default its directory, `logsRoot`): a store's runs by id. */
  naming: { runRef?: (id: string) => string; storeArgs?: readonly string[] } = {},
): Promise<number> {
  const asking = await interviewerFor(flags, answered, setup.defaults, io);
  if (typeof asking === 'string') {
    io.stderr(`orchestra: ${escapeControl(asking)}\n`);
    return ExitCode.usage;
  }
  const renderer = createRunRenderer(io, {
    mode: modeOf(flags),
    live: flags.live === true && modeOf(flags) === 'normal',
    colour: flags.colour === true,
    ...(asking.console ? { replies: asking.console } : {}),
  });
  const interrupt = abortOnSignals(
    () => {
      renderer.stop();
      killRunningTools();
      io.stderr('orchestra: interrupted again; exiting without waiting\n');
      process.exit(ExitCode.interrupted);
    },
    (sig) => {
      renderer.stop();
      // On a terminal the ^C the terminal echoed ends its line first: the message starts on a line of its own.
      io.stderr(`${flags.live ? '\n' : ''}orchestra: stopping at the next safe point... (${sig === 'SIGINT' ? 'Ctrl-C' : sig} again to stop at once)\n`);
    },
  );
  try {
    const run = await launch({ questions: asking.questions, onEvent: renderer.onEvent, signal: interrupt.signal, phasedMode: phasedModeOf(flags) });
    const result = await run.done;
    renderer.summary(result);
    const ref = naming.runRef ? naming.runRef(run.id) : result.logsRoot;
    if (result.status === 'parked') {
      // The console parks the run when its input ends: then say how to run unattended too.
      const inputEnded = result.parkedReason === 'end-of-input';
      io.stderr(parkedMessage({ logsRoot: ref, pending: await readPendingQuestions(run.store), resumeArgs: hintFlags, inputEnded, ...(naming.storeArgs ? { storeArgs: naming.storeArgs } : {}) }));
    }
    if (result.status === 'interrupted') {
      io.stderr(`orchestra: interrupted; the checkpoint is saved. Continue with:\n  ${shellCommand(['orchestra', 'resume', ref, ...hintFlags.filter((f) => f !== '--park')])}\n`);
    }
    return exitCodeOf(result);
  } catch (error) {
    renderer.stop();
    if (error instanceof ValidationError) {
      for (const d of sortDiagnostics(error.diagnostics)) io.stderr(`${formatDiagnostic(d, d.location?.file ?? '<pipeline>')}\n`);
      return ExitCode.failed;
    }
    if (isOrchestraError(error)) {
      const simulate = error.code === 'ORCH_NO_BACKEND' && !flags.simulate ? ' (or run with --simulate to try the pipeline with simulated responses)' : '';
      io.stderr(`orchestra: ${escapeControl(error.message)}${simulate}\n`);
      return ExitCode.usage;
    }
    throw error;
  } finally {
    interrupt.dispose();
    asking.close();
  }
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
  if (!flags.quiet && !flags.json) for (const d of sortDiagnostics(run.diagnostics)) io.stderr(`${formatDiagnostic(d, file)}\n`);
  const setup = await setUp(graph, run.sourceFile, flags, extension?.callsModels ?? false);
  if (typeof setup === 'string') {
    io.stderr(`orchestra: ${escapeControl(setup)}\n`);
    return ExitCode.usage;
  }
  const runSetup = async () => ({ ...(setup.backend ? { backend: setup.backend } : {}), ...(extension ? { handlers: await extension.handlers(setup.backend) } : {}) });
  const types = extension ? { handlerTypes: extension.handlerTypes } : {};
  const request = {
    source: run.source,
    graph,
    file,
    sourceFile: run.sourceFile,
    context: run.context,
    options: recordRunOptions(flags),
  };
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
        return await execute(io, flags, 0, setup, storeArgs, (attach) => supervisor.start(request, attach), { runRef: (id) => id, storeArgs });
      } finally {
        await store.close();
      }
    });
  }
  // A run directory given: run <name> of its parent; else a new run in .orchestra/runs.
  const target = flags.logsDir ? cliRun(resolve(flags.logsDir), runSetup, types) : { supervisor: cliRuns(dirname(defaultLogsRoot(graph.name)), runSetup, types), id: undefined };
  return execute(io, flags, 0, setup, [], (attach) => target.supervisor.start({ ...request, ...(target.id !== undefined ? { id: target.id } : {}) }, attach));
}

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
    await target.dispatch.resume(target.id);
    if (!given.quiet) io.stderr(`orchestra: queued run ${escapeControl(target.id)}; a worker continues it\n`);
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
    target.store !== undefined ? { runRef: (id) => id, storeArgs } : {},
  );
}
