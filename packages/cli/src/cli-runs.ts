import { basename, dirname } from 'node:path';
import { FileRunCatalogue, RunSupervisor, type RunSetupHook } from '@orchestra/core';

/** The supervisor of one run directory the CLI names, and the run's id in it. */
export interface CliRun {
  supervisor: RunSupervisor;
  /** The run's id: the directory's name. */
  id: string;
}

/**
 * The CLI's composition root for runs: a run directory (`--logs-dir`,
 * `resume <dir>`, `answer <dir>`, `status <dir>`) is run `<name>` of the file
 * catalogue of its parent directory, driven by a {@link RunSupervisor} like
 * every other front end's runs.
 */
export function cliRun(logsRoot: string, setup?: RunSetupHook, more: { handlerTypes?: readonly string[] } = {}): CliRun {
  const supervisor = new RunSupervisor({ catalogue: new FileRunCatalogue(dirname(logsRoot)), ...(setup ? { setup } : {}), ...more });
  return { supervisor, id: basename(logsRoot) };
}

/** The supervisor of the runs kept in a directory of runs (`.orchestra/runs` by default), for new runs with new ids. */
export function cliRuns(runsDir: string, setup?: RunSetupHook, more: { handlerTypes?: readonly string[] } = {}): RunSupervisor {
  return new RunSupervisor({ catalogue: new FileRunCatalogue(runsDir), ...(setup ? { setup } : {}), ...more });
}
