import {
  AutoApproveInterviewer,
  ConsoleInterviewer,
  isOrchestraError,
  QueueInterviewer,
  ValidationError,
  simulationBackend,
  type CodergenBackend,
  type Interviewer,
  type RunAttachment,
  type RunEvent,
  type RunResult,
  type SupervisedRun,
} from '@orchestra/core';
import { readPendingQuestions } from '@orchestra/core/store';
import { killRunningTools } from '@orchestra/core/handlers';
import { escapeControl, sortDiagnostics, type Graph } from '@orchestra/core/loader';
import type { LoadedConfig } from '@orchestra/llm/config';
import { readAnswersFile } from './answers-file.js';
import { ExitCode } from './exit-codes.js';
import { formatDiagnostic } from './format-diagnostics.js';
import { abortOnSignals } from './interrupt.js';
import { inputOf, stderrStreamOf, type CliIO } from './io.js';
import { hasLlmStages, hasRunConfig, loadRunConfig, modelBackend } from './llm-backend.js';
import { modelFlags } from './model-flags.js';
import { parkedMessage } from './render/parked-message.js';
import { createRunRenderer, type RenderMode } from './render/run-renderer.js';
import { phasedModeOf, type RunFlags } from './run-flags.js';
import { shellCommand } from './shell-quote.js';
import { startCliTracing } from './tracing/cli-tracing.js';
import type { CliCassette } from './cassette-run.js';

/**
 * What `orchestra run` and `orchestra resume` share: the backend and
 * interviewer a run gets from its flags and orchestra.yaml, and driving a
 * started run to its end with the renderer, Ctrl-C and the messages that
 * say how to go on.
 */

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
export async function interviewerFor(flags: RunFlags, answered: number, defaults: AskingDefaults, io: CliIO): Promise<Asking | string> {
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
export interface Setup {
  defaults: AskingDefaults;
  backend?: CodergenBackend;
  /** The cassette `--record` or `--replay` names: it answers (or records) the run's model calls, questions and tools. */
  cassette?: CliCassette;
}

/**
 * Loads `orchestra.yaml` and picks the LLM backend: the simulation with
 * `--simulate`, none for a pipeline without LLM stages, else the model
 * backend (LangChain is loaded only then). A bad flag or configuration is an
 * error message (exit 2).
 */
export async function setUp(graph: Graph, pipelineFile: string | undefined, flags: RunFlags, callsModels = false, cassette?: CliCassette): Promise<Setup | string> {
  const setup = await setUpBackend(graph, pipelineFile, flags, callsModels, cassette);
  return typeof setup === 'string' || !cassette ? setup : { ...setup, cassette };
}

async function setUpBackend(graph: Graph, pipelineFile: string | undefined, flags: RunFlags, callsModels: boolean, cassette: CliCassette | undefined): Promise<Setup | string> {
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
  return { defaults, backend: await modelBackend(config, models, cassette?.cassette) };
}

/**
 * The flags to repeat when continuing a run (`orchestra resume ...`), one
 * argument each: those given to this resume (a run records the flags it
 * started with, so `orchestra resume <dir>` alone continues it the same way).
 */
export function resumeFlags(flags: RunFlags): string[] {
  const args: string[] = [];
  if (flags.simulate) args.push('--simulate');
  if (flags.model) args.push('--model', flags.model);
  if (flags.baseUrl) args.push('--base-url', flags.baseUrl);
  if (flags.backend) args.push('--backend', flags.backend);
  if (flags.park) args.push('--park');
  if (flags.otel) args.push('--otel');
  return args;
}

/** Starts (or resumes) the run through its supervisor, taking part as `attach` says. */
export type Launch = (attach: RunAttachment) => Promise<SupervisedRun>;

/** Runs the launched run with Ctrl-C handling and the renderer; maps errors to exit codes. */
export async function execute(
  io: CliIO,
  flags: RunFlags,
  answered: number,
  setup: Setup,
  /** Flags a printed `orchestra resume` command repeats. */
  hintFlags: string[],
  launch: Launch,
  /** How printed commands name the run (default its directory, `logsRoot`): a store's runs by id. */
  naming: { runRef?: (id: string) => string; storeArgs?: readonly string[]; queuedOnAnswer?: boolean } = {},
): Promise<number> {
  const { cassette } = setup;
  // A replay's questions are answered by its cassette: nobody is asked.
  const asking = cassette?.cassette.mode === 'replay' ? { questions: cassette.interviewer('park'), close: () => {} } : await interviewerFor(flags, answered, setup.defaults, io);
  if (typeof asking === 'string') {
    io.stderr(`orchestra: ${escapeControl(asking)}\n`);
    return ExitCode.usage;
  }
  const questions = cassette && cassette.cassette.mode === 'record' ? cassette.interviewer(asking.questions) : asking.questions;
  // Traces only when asked for (--otel, an OTLP endpoint variable): otherwise nothing of OpenTelemetry is loaded.
  const tracing = await startCliTracing(flags.otel, io);
  const traced = tracing?.observe();
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
    const onEvent = traced
      ? (event: RunEvent) => {
          renderer.onEvent(event);
          traced.onEvent(event);
        }
      : renderer.onEvent;
    const signal = cassette ? cassette.signal(interrupt.signal) : interrupt.signal;
    const run = await launch({ questions, onEvent, ...(traced ? { onChildEvent: traced.onChildEvent } : {}), signal, phasedMode: phasedModeOf(flags) });
    const result = await run.done;
    renderer.summary(result);
    const verdict = await cassette?.finish(io, result);
    if (verdict !== undefined) return verdict;
    const ref = naming.runRef ? naming.runRef(run.id) : result.logsRoot;
    if (result.status === 'parked') {
      // The console parks the run when its input ends: then say how to run unattended too.
      const inputEnded = result.parkedReason === 'end-of-input';
      io.stderr(parkedMessage({ logsRoot: ref, pending: await readPendingQuestions(run.store), resumeArgs: hintFlags, inputEnded, ...(naming.storeArgs ? { storeArgs: naming.storeArgs } : {}), ...(naming.queuedOnAnswer ? { queuedOnAnswer: true } : {}) }));
    }
    if (result.status === 'interrupted') {
      io.stderr(`orchestra: interrupted; the checkpoint is saved. Continue with:\n  ${shellCommand(['orchestra', 'resume', ref, ...hintFlags.filter((f) => f !== '--park')])}\n`);
    }
    return exitCodeOf(result);
  } catch (error) {
    renderer.stop();
    await cassette?.finish(io, undefined);
    if (error instanceof ValidationError) {
      for (const d of sortDiagnostics(error.diagnostics)) io.stderr(`${formatDiagnostic(d, d.location?.file ?? '<pipeline>')}\n`);
      return ExitCode.failed;
    }
    if (isOrchestraError(error)) {
      // --simulate does not go with a cassette: it is no way out there.
      const simulate = error.code === 'ORCH_NO_BACKEND' && !flags.simulate && !cassette ? ' (or run with --simulate to try the pipeline with simulated responses)' : '';
      io.stderr(`orchestra: ${escapeControl(error.message)}${simulate}\n`);
      return ExitCode.usage;
    }
    throw error;
  } finally {
    interrupt.dispose();
    asking.close();
    await tracing?.finish();
  }
}

