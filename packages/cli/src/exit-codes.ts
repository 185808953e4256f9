/** Exit codes of the `orchestra` command (DESIGN.md, CLI contract). */
export const ExitCode = {
  /** Success; validation found no errors. */
  ok: 0,
  /** The pipeline failed, or validation found errors. */
  failed: 1,
  /** The input could not be used: unreadable file, bad flags. */
  usage: 2,
  /** Parked: waiting for a human answer (`orchestra answer`, then `orchestra resume`). */
  parked: 3,
  /** Interrupted (Ctrl-C); the checkpoint is saved and `orchestra resume` continues. */
  interrupted: 130,
  /** orchestra itself failed unexpectedly (a bug; `--debug` shows the stack). */
  internal: 70,
} as const;
