/**
 * Running programs on a run's behalf: process groups that are killed as a
 * whole, capped output, and text made safe to print.
 * @module
 */
export { DEFAULT_MAX_OUTPUT_BYTES, DRAIN_MS, KILL_GRACE_MS, runProcess, type ProcessResult, type RunProcessOptions } from './run-process.js';
export { ProcessStartError } from './process-start-error.js';
export { CappedOutput } from './capped-output.js';
