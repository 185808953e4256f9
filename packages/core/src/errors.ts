/**
 * Base class of every error orchestra throws on purpose. `code` is stable and
 * documented; messages may change.
 */
export class OrchestraError extends Error {
  /** Stable, machine-readable error code, e.g. `ORCH_VALIDATION`. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OrchestraError';
    this.code = code;
  }
}
