/**
 * Every `code` an error thrown by `@orchestra/llm` carries (see "Errors of
 * the LLM backends" in docs/library.md, which a test keeps equal to this list).
 */
export const LLM_ERROR_CODES = [
  'ORCH_LLM_AUTH',
  'ORCH_LLM_FORBIDDEN',
  'ORCH_LLM_MODEL_NOT_FOUND',
  'ORCH_LLM_CONTEXT_LENGTH',
  'ORCH_LLM_BAD_REQUEST',
  'ORCH_LLM_RATE_LIMIT',
  'ORCH_LLM_SERVER',
  'ORCH_LLM_TIMEOUT',
  'ORCH_LLM_UNREACHABLE',
  'ORCH_CLI_AGENT',
  'ORCH_CLI_AGENT_TIMEOUT',
  'ORCH_AGENT_TURNS',
  'ORCH_PROCESS_START',
  'ORCH_TOOL_REFUSED',
  'ORCH_NO_MODEL',
  'ORCH_NO_PROVIDER',
  'ORCH_NO_API_KEY',
  'ORCH_BAD_ATTRIBUTE',
  'ORCH_BAD_URL',
  'ORCH_UNKNOWN_ROLE',
  'ORCH_CONFIG',
  'ORCH_OUTPUT_SCHEMA',
  'ORCH_SERIALIZE_NO_TOOL_CALL',
  'ORCH_ARTIFACT_INVALID',
  'ORCH_ARTIFACT_FATAL',
  'ORCH_ARTIFACT_CHECK',
] as const;

/** A `code` of an error thrown by `@orchestra/llm`. */
export type LlmErrorCode = (typeof LLM_ERROR_CODES)[number];
