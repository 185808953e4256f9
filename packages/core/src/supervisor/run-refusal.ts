import { OrchestraError } from '../errors.js';

/**
 * Why a {@link RunSupervisor} refused a request, with a stable code and the
 * details a front end shows (a web API puts them in its error body). The
 * codes: `ORCH_INVALID_PIPELINE` (`details.diagnostics`, `details.file`),
 * `ORCH_BAD_REQUEST`, `ORCH_NO_BACKEND`, `ORCH_TOOLS_REFUSED`
 * (`details.uses`), `ORCH_BAD_ANSWER`, `ORCH_NOT_PENDING`,
 * `ORCH_RUN_ACTIVE`, `ORCH_RUN_LOCKED` (`details.owner`), `ORCH_RUN_ENDED`
 * (`details.state`), `ORCH_RUN_NOT_RUNNING` (`details.state`).
 */
export class RunRefusal extends OrchestraError {
  constructor(
    code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(code, message);
    this.name = 'RunRefusal';
  }
}

/**
 * A run whose records cannot be read as `orchestra status` reads them (a
 * damaged or changed run): the store's error, with its code, and the run it
 * concerns. A web API answers it as "unprocessable", not as a conflict.
 */
export class RunUnreadableError extends OrchestraError {
  constructor(
    readonly runId: string,
    cause: OrchestraError,
  ) {
    super(cause.code, cause.message, { cause });
    this.name = 'RunUnreadableError';
  }
}
