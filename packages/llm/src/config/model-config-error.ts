import { OrchestraError } from '@orchestra/core';
import type { LlmErrorCode } from '../errors/llm-error-codes.js';

/** Codes of {@link ModelConfigError}. */
export type ModelConfigErrorCode = Extract<
  LlmErrorCode,
  /** No model named by flag, node, stylesheet or `defaults.model`. */
  | 'ORCH_NO_MODEL'
  /** A provider name that is neither configured nor the built-in `openai`. */
  | 'ORCH_NO_PROVIDER'
  /** The provider needs an API key and its environment variable is unset or empty. */
  | 'ORCH_NO_API_KEY'
  /** A node attribute the LLM layer reads has a value it cannot use (`agent.tools`, `agent.max_turns`, ...). */
  | 'ORCH_BAD_ATTRIBUTE'
  /** `OPENAI_BASE_URL` (or another base URL from the environment) is not an http(s) URL. */
  | 'ORCH_BAD_URL'
  /** A conference names a role `roles:` does not define, or whose contract file cannot be read. */
  | 'ORCH_UNKNOWN_ROLE'
>;

/**
 * A node cannot be given a model: nothing names one, its provider is unknown,
 * its API key is missing or one of its LLM attributes is unusable. The message
 * is one line that says what to set.
 */
export class ModelConfigError extends OrchestraError<ModelConfigErrorCode> {
  /** The node being resolved. */
  readonly nodeId: string;

  constructor(code: ModelConfigErrorCode, nodeId: string, message: string) {
    super(code, message);
    this.name = 'ModelConfigError';
    this.nodeId = nodeId;
  }
}
