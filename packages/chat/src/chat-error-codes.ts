/**
 * Every `code` an error thrown by `@orchestra/chat` carries on its own
 * account. A `LaunchError` for a run the server refused carries the
 * server's code instead (`ORCH_INVALID_PIPELINE`, `ORCH_TOOLS_REFUSED`, …:
 * docs/mcp.md#errors).
 */
export const CHAT_ERROR_CODES = ['ORCH_BAD_REQUEST', 'ORCH_LAUNCH_FAILED', 'ORCH_ILLEGAL_TRANSITION'] as const;

/** A `code` of an error thrown by `@orchestra/chat` on its own account. */
export type ChatErrorCode = (typeof CHAT_ERROR_CODES)[number];
