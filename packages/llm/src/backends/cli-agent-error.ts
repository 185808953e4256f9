import { OrchestraError } from '@orchestra/core';
import type { LlmErrorCode } from '../errors/llm-error-codes.js';

/**
 * A CLI agent failed: it exited with a non-zero code, was killed, printed
 * nothing, or could not be started. Code `ORCH_CLI_AGENT`; not retryable.
 * The message is one line: `cli agent "claude -p" exited with code 2: <the
 * end of its stderr>`.
 */
export class CliAgentError extends OrchestraError<Extract<LlmErrorCode, 'ORCH_CLI_AGENT'>> {
  readonly retryable = false;

  constructor(message: string, options?: { cause?: unknown }) {
    super('ORCH_CLI_AGENT', message, options);
    this.name = 'CliAgentError';
  }
}

/**
 * A CLI agent gave no answer within its time limit and its process group was
 * killed. Code `ORCH_CLI_AGENT_TIMEOUT`; `name` is `TimeoutError` and it is
 * retryable, like every timeout.
 */
export class CliAgentTimeoutError extends OrchestraError<Extract<LlmErrorCode, 'ORCH_CLI_AGENT_TIMEOUT'>> {
  readonly retryable = true;
  /** The limit that was reached, in milliseconds. */
  readonly timeoutMs: number;

  constructor(label: string, timeoutMs: number) {
    super('ORCH_CLI_AGENT_TIMEOUT', `cli agent ${label} gave no answer within ${formatDuration(timeoutMs)}; its process group was killed`);
    this.name = 'TimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

/** A duration as people write it: `10m`, `90s`, `1.5s`, `250ms`, `2h`. */
export function formatDuration(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms >= 1000) return `${Number((ms / 1000).toFixed(1))}s`;
  return `${Math.round(ms)}ms`;
}
