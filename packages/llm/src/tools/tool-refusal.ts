import { OrchestraError } from '@orchestra/core';
import type { LlmErrorCode } from '../errors/llm-error-codes.js';

/**
 * A workspace tool said no: the path is outside the workspace, leads out of
 * it through a symbolic link, or names something the tools do not change.
 * Code `ORCH_TOOL_REFUSED`; `refused` is true so an agent loop can report the
 * call as `refused` rather than `error`. The message is written for the
 * model: it says what was refused and what to do instead.
 */
export class ToolRefusal extends OrchestraError<Extract<LlmErrorCode, 'ORCH_TOOL_REFUSED'>> {
  readonly refused = true;

  constructor(message: string) {
    super('ORCH_TOOL_REFUSED', message);
    this.name = 'ToolRefusal';
  }
}
