import { CheckpointError, OrchestraError, RunLockedError, ValidationError, diagnosticToJson, sortDiagnostics, type Diagnostic } from '@orchestra/core';
import { ApiError } from './api-error.js';

/** A pipeline that did not load, as a 400 with its diagnostics (each with `file`, `line`, `column`). */
export function invalidPipeline(file: string, diagnostics: readonly Diagnostic[]): ApiError {
  const sorted = sortDiagnostics(diagnostics);
  const errors = sorted.filter((d) => d.severity === 'error').length;
  return new ApiError(400, 'ORCH_INVALID_PIPELINE', `${file} is not a valid pipeline (${errors} error${errors === 1 ? '' : 's'}); nothing was run`, {
    diagnostics: sorted.map((d) => diagnosticToJson(d, file)),
  });
}

/** An error a run raised before its first node, as the API reports it. */
export function startError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof ValidationError) return invalidPipeline('pipeline.dot', error.diagnostics);
  if (error instanceof RunLockedError) {
    return new ApiError(409, error.code, error.message, { owner: { pid: error.holder.pid, host: error.holder.host, since: error.holder.acquired_at } });
  }
  if (error instanceof CheckpointError) return new ApiError(409, error.code, error.message);
  if (error instanceof OrchestraError) return new ApiError(400, error.code, error.message);
  return new ApiError(500, 'ORCH_INTERNAL', error instanceof Error ? error.message : String(error));
}
