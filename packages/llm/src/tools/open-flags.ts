import { constants } from 'node:fs';

/**
 * Open flags that refuse a symbolic link as the last part of the path: the
 * path was resolved and checked just before, so a link there now means it
 * was swapped in since (the open fails with ELOOP instead of following it).
 */
export const READ_NO_FOLLOW = constants.O_RDONLY | constants.O_NOFOLLOW;
/** {@link READ_NO_FOLLOW} for writing: create or truncate. */
export const WRITE_NO_FOLLOW = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;
