import type { Clock } from './clock.js';
import type { ChildRunner } from './handler.js';

/** What the engine needs besides the plan and the store. */
export interface EngineOptions {
  /** Cancels the run at a safe point: the checkpoint is kept and the run can be resumed. */
  signal?: AbortSignal;
  /** Random source for backoff jitter (tests pass a fixed one). */
  random?: () => number;
  /** Time for back-off and timeouts (tests inject one). */
  clock?: Clock;
  /** Directory tool commands run in. */
  workdir: string;
  /** Longest the checkpoint may lag the journal during a run (default 500 ms). */
  checkpointIntervalMs?: number;
  /**
   * Most steps one call of the engine may take, a positive integer, counted
   * across its `loop_restart`s: a step is a node run (its retries included)
   * or the exit sending the run back to an unsatisfied goal gate's retry
   * target. The step past it fails the run (`the run took more than N steps
   * (maxSteps=N) without ending`) before it does anything. Unset: no limit
   * besides the nodes' `max_visits`. A guard for tests and embedders: a loop
   * that never ends fails instead of running for ever. Parallel branches are
   * bounded on their own (`MAX_BRANCH_STEPS`).
   */
  maxSteps?: number;
  /** Initial context values (`--set key=value`). */
  initialContext?: Record<string, unknown>;
  /** The pipeline's DOT text, stored with the run so `resume` runs the same graph. */
  source?: string;
  /** Where the pipeline came from, for the manifest. */
  sourceFile?: string;
  /** Options that change how the run behaves, recorded in the manifest for resume (the engine does not read them). */
  runOptions?: Record<string, unknown>;
  /** Runs child pipelines for the nodes that start them; without one such a node fails (`no child runner`). */
  childRunner?: ChildRunner;
}
