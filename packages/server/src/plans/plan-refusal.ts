import { OrchestraError } from '@orchestra/core';

/** How a plan request was refused: nothing to act on, a conflict with the plan's state, or a plan file that cannot be read. */
export type PlanRefusalKind = 'not_found' | 'conflict' | 'unreadable';

/**
 * A plan request refused (the server's plan endpoints): its `kind` says
 * which (the HTTP layer gives it a status), its code is the server's
 * (`ORCH_NOT_FOUND`) or that of the session plan's own error it passes on.
 */
export class PlanRefusal extends OrchestraError {
  constructor(
    readonly kind: PlanRefusalKind,
    code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
    this.name = 'PlanRefusal';
  }
}
