import { OrchestraError } from '../errors.js';

/** Codes of {@link CassetteError}. */
export type CassetteErrorCode =
  /** A line of the cassette is not what orchestra writes (names the line). */
  | 'ORCH_CASSETTE_DAMAGED'
  /** The cassette was recorded from another pipeline (its pipeline hash differs). */
  | 'ORCH_CASSETTE_FOREIGN'
  /** The run asked something the cassette does not hold (stage, request number, what differs). */
  | 'ORCH_CASSETTE_MISMATCH'
  /** A strict replay ended with recorded exchanges the run never asked for. */
  | 'ORCH_CASSETTE_UNUSED';

/** A cassette that cannot be used (damaged, recorded from another pipeline), or a replay that departed from it (a request it does not hold, exchanges left unused). */
export class CassetteError extends OrchestraError<CassetteErrorCode> {
  constructor(code: CassetteErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'CassetteError';
  }
}
