/**
 * Every `code` the HTTP API of `@orchestra/server` answers an error with on
 * its own account (see docs/http-api.md). A request that fails on an error
 * of another package (`ORCH_CHECKPOINT` from a run's files, `ORCH_CONFIG`
 * from an orchestra.yaml, …) is answered with that error's code.
 */
export const SERVER_ERROR_CODES = [
  'ORCH_BAD_REQUEST',
  'ORCH_UNAUTHORIZED',
  'ORCH_HOST_NOT_ALLOWED',
  'ORCH_ORIGIN_NOT_ALLOWED',
  'ORCH_NOT_FOUND',
  'ORCH_BODY_TOO_LARGE',
  'ORCH_INTERNAL',
  'ORCH_INVALID_PIPELINE',
  'ORCH_NO_BACKEND',
  'ORCH_TOOLS_REFUSED',
  'ORCH_RUN_NOT_FOUND',
  'ORCH_NO_PIPELINE',
  'ORCH_NOT_PENDING',
  'ORCH_BAD_ANSWER',
] as const;

/** A `code` the HTTP API of `@orchestra/server` answers an error with on its own account. */
export type ServerErrorCode = (typeof SERVER_ERROR_CODES)[number];
