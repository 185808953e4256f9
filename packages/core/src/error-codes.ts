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
] as const;

/** A `code` of an error thrown by `@orchestra/core`. */
export type CoreErrorCode = (typeof CORE_ERROR_CODES)[number];
