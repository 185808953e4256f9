/** HTTP statuses the API answers errors with. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 421 | 422 | 500;

/**
 * A refusal the HTTP API turns into a JSON error: `{ "error": { "code",
 * "message", ...details } }` with `status`. Codes are stable (documented in
 * docs/http-api.md).
 */
export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
