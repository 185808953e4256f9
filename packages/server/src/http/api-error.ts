import { OrchestraError, type CoreErrorCode } from '@orchestra/core';
import type { ServerErrorCode } from '../server-error-codes.js';

/** HTTP statuses the API answers errors with. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 421 | 422 | 500 | 503;

/** The codes the API answers with: its own, and those of core's errors it passes on (a run's `ORCH_CHECKPOINT`, ...). */
export type ApiErrorCode = ServerErrorCode | CoreErrorCode | (string & {});

/**
 * A refusal the HTTP API turns into a JSON error: `{ "error": { "code",
 * "message", ...details } }` with `status`. Codes are stable (documented in
 * docs/http-api.md). The HTTP layer's own: statuses exist only here.
 */
export class ApiError extends OrchestraError<ApiErrorCode> {
  constructor(
    readonly status: ErrorStatus,
    code: ApiErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(code, message);
    this.name = 'ApiError';
  }
}
