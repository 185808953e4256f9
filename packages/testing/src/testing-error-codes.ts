/**
 * Every `code` an error thrown by `@orchestra/testing` carries:
 * `MemoryRunStore` refuses a second run as every run store does.
 */
export const TESTING_ERROR_CODES = ['ORCH_RUN_EXISTS'] as const;

/** A `code` of an error thrown by `@orchestra/testing`. */
export type TestingErrorCode = (typeof TESTING_ERROR_CODES)[number];
