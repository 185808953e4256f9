/**
 * Every `code` of an error the `orchestra` command throws on its own
 * account (the errors of the libraries it runs keep theirs). The command
 * prints them as `orchestra: <message>` with exit code 2.
 */
export const CLI_ERROR_CODES = ['ORCH_BAD_REQUEST'] as const;

/** A `code` of an error the `orchestra` command throws on its own account. */
export type CliErrorCode = (typeof CLI_ERROR_CODES)[number];
