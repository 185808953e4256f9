/**
 * Every `code` an error thrown by `@orchestra/core` carries (see "Errors" in
 * docs/library.md, which a test keeps equal to this list).
 */
export const CORE_ERROR_CODES = [
  'ORCH_VALIDATION',
  'ORCH_READ',
  'ORCH_NO_BACKEND',
  'ORCH_NO_HANDLER',
  'ORCH_RUN_EXISTS',
  'ORCH_RUN_LOCKED',
  'ORCH_CHECKPOINT',
  'ORCH_NO_SPACE',
  'ORCH_BAD_NODE_ID',
  'ORCH_BAD_PATH',
  'ORCH_PATH',
  'ORCH_CONTEXT_VALUE',
  'ORCH_INTERNAL',
  'ORCH_RUN_NOT_FOUND',
  'ORCH_INVALID_PIPELINE',
  'ORCH_BAD_REQUEST',
  'ORCH_TOOLS_REFUSED',
  'ORCH_BAD_ANSWER',
  'ORCH_NOT_PENDING',
  'ORCH_RUN_ACTIVE',
  'ORCH_RUN_ENDED',
  'ORCH_RUN_NOT_RUNNING',
  'ORCH_NO_DISPATCH',
  'ORCH_CASSETTE_DAMAGED',
  'ORCH_CASSETTE_FOREIGN',
  'ORCH_CASSETTE_MISMATCH',
  'ORCH_CASSETTE_UNUSED',
] as const;

/** A `code` of an error thrown by `@orchestra/core`. */
export type CoreErrorCode = (typeof CORE_ERROR_CODES)[number];
