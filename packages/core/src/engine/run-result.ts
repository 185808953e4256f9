import type { JsonValue } from './outcome.js';
import type { TokenUsage } from './usage.js';

/** How a run ended. */
export interface RunResult {
  /** `success`, `fail`, `interrupted` (resumable), or `parked` (waiting for an answer; resumable). */
  status: 'success' | 'fail' | 'interrupted' | 'parked';
  /** Node ids in the order they completed. */
  completedNodes: string[];
  /** The final context. */
  context: Record<string, JsonValue>;
  /** Where the run is kept (the last run, after `loop_restart`): the run directory with the file store. */
  logsRoot: string;
  failureReason?: string;
  /** Retries used across the run. */
  retries: number;
  durationMs: number;
  /** True when `resumePipeline` found the run already finished and ran nothing. */
  alreadyFinished?: boolean;
  /** Tokens the run's LLM stages used (every process that ran it), when any reported usage. */
  usage?: TokenUsage;
  /** Why the run parked, when the interviewer said (`end-of-input`: the console's input ended). */
  parkedReason?: string;
}
