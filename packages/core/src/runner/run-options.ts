import type { Clock } from '../engine/clock.js';
import { EventBus } from '../engine/event-bus.js';
import type { ChildEventListener } from '../engine/child-events.js';
import type { RunEvent } from '../engine/events.js';
import type { HandlerRegistry } from '../engine/handler-registry.js';
import type { EngineOptions } from '../engine/engine-options.js';
import type { RunStore } from '../engine/store/run-store.js';
import type { CodergenBackend } from '../handlers/codergen-backend.js';
import type { PhasedMode } from '../handlers/codergen-dispatcher.js';
import { createDefaultRegistry, createLlmHandler } from '../handlers/default-registry.js';
import type { Interviewer } from '../human/interviewer.js';
import { AutoApproveInterviewer } from '../human/simple-interviewers.js';
import { createConferenceHandler } from '../handlers/conference/conference-handler.js';
import { CONFERENCE_TYPE } from '../graph/conference-settings.js';

/** Options of {@link runPipeline} and {@link resumePipeline}. */
export interface RunOptions {
  /** Runs LLM stages; required when the pipeline has any (use `simulationBackend` to simulate). */
  backend?: CodergenBackend;
  /** Handlers to use; defaults to the built-ins (plus codergen over `backend`, wait.human asking `interviewer`). */
  registry?: HandlerRegistry;
  /** Who answers human gates when the default registry is used (default: auto-approve). */
  interviewer?: Interviewer;
  /**
   * Where the run is kept. Default: a {@link FileRunStore} in `logsRoot`.
   * `MemoryRunStore` from @orchestra/testing keeps it in memory.
   */
  store?: RunStore;
  /** Run directory of the default file store; default `.orchestra/runs/<timestamp>-<pipeline>` under `workdir`. */
  logsRoot?: string;
  /** Cancels the run at a safe point: the checkpoint is kept and the run can be resumed. */
  signal?: AbortSignal;
  /** Called for every event. */
  onEvent?: (event: RunEvent) => void;
  /**
   * Called for every event of the child runs the run's nodes start
   * (sub-pipelines, manager loops, at any depth), with the child it comes
   * from. Those events are not the run's own: `onEvent` and `events.jsonl`
   * never carry them.
   */
  onChildEvent?: ChildEventListener;
  /** An event bus to emit on (for `stream()` consumers); one is created otherwise. */
  events?: EventBus;
  /** Initial context values (`--set key=value`). */
  initialContext?: Record<string, unknown>;
  /** Directory tool commands run in; default `process.cwd()` (a resumed run: the directory recorded when it started). */
  workdir?: string;
  /** The pipeline's DOT text, stored with the run so `resume` runs the same graph. */
  source?: string;
  /** Where the pipeline came from, for the manifest. */
  sourceFile?: string;
  /** Random source for backoff jitter (tests pass a fixed one). */
  random?: () => number;
  /** Time for retry back-off and node timeouts (tests inject a fake one). */
  clock?: Clock;
  /** Longest the checkpoint may lag the journal during a run (default 500 ms). */
  checkpointIntervalMs?: number;
  /**
   * Most steps this call may take, a positive integer, across `loop_restart`s
   * (a step: a node run, retries included, or the exit sending the run back
   * to a goal gate's retry target); the step past it fails the run. Unset: no
   * limit besides `max_visits`. Tests set it so that a run that loops fails
   * instead of spinning.
   */
  maxSteps?: number;
  /**
   * With the default file store: flush the journal to disk after every node,
   * not only with each checkpoint. Without it a killed process still loses
   * nothing; with it, neither does a power loss.
   */
  syncEveryNode?: boolean;
  /** Options that change how the run behaves, recorded in the manifest so a resume can continue the same way. */
  runOptions?: Record<string, unknown>;
  /**
   * How phased LLM stages (`output.schema`) that set no `agent.mode` hold
   * their Discuss phase when the handlers are built here (no `registry`, or
   * one without `codergen`): `direct` (default) or `interactive` (a
   * conversation through `interviewer`).
   */
  phasedMode?: PhasedMode;
}

/** The handlers a run uses: the given registry (with codergen and conference over `backend` where it has none), or the built-ins. */
export function registryFor(options: RunOptions): HandlerRegistry {
  if (!options.registry) {
    return createDefaultRegistry({
      ...(options.backend ? { backend: options.backend } : {}),
      ...(options.interviewer ? { interviewer: options.interviewer } : {}),
      ...(options.phasedMode ? { phasedMode: options.phasedMode } : {}),
    });
  }
  if (!options.backend || (options.registry.get('codergen') && options.registry.get(CONFERENCE_TYPE))) return options.registry;
  const copy = options.registry.clone();
  if (!copy.get('codergen')) copy.register('codergen', createLlmHandler(options.backend, options.interviewer ?? new AutoApproveInterviewer(), options.phasedMode));
  if (!copy.get(CONFERENCE_TYPE)) copy.register(CONFERENCE_TYPE, createConferenceHandler(options.backend));
  return copy;
}

/** Subscribes `onEvent` to the run's bus (created when none is given); `release` undoes it. */
export function openEvents(options: RunOptions): { events: EventBus; release: () => void } {
  const events = options.events ?? new EventBus();
  const off = options.onEvent ? events.on(options.onEvent) : () => {};
  return {
    events,
    release: () => {
      off();
      if (!options.events) events.close();
    },
  };
}

/** The engine's options out of a run's. */
export function engineOptions(options: RunOptions, workdir: string): EngineOptions {
  return {
    workdir,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.random ? { random: options.random } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.checkpointIntervalMs !== undefined ? { checkpointIntervalMs: options.checkpointIntervalMs } : {}),
    ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
    ...(options.initialContext ? { initialContext: options.initialContext } : {}),
    ...(options.source !== undefined ? { source: options.source } : {}),
    ...(options.sourceFile !== undefined ? { sourceFile: options.sourceFile } : {}),
    ...(options.runOptions ? { runOptions: options.runOptions } : {}),
  };
}

