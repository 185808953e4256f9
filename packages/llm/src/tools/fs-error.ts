/**
 * A clear, one-line error for a failed file operation on `shown` (the path as
 * the model wrote it): `no such file: src/a.ts`, `permission denied: x`.
 */
export function fsError(error: unknown, shown: string, what = 'file'): Error {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return new Error(`no such ${what}: ${shown}`, { cause: error });
    case 'ENOTDIR':
      return new Error(`no such ${what}: ${shown} (a part of the path is a file, not a directory)`, { cause: error });
    case 'EISDIR':
      return new Error(`${shown} is a directory, not a file`, { cause: error });
    case 'ELOOP':
      return new Error(`${shown} became a symbolic link while it was being opened; try again`, { cause: error });
    case 'EACCES':
    case 'EPERM':
      return new Error(`permission denied: ${shown}`, { cause: error });
    default:
      return new Error(`${shown}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
