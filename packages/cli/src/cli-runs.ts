import { basename, dirname, resolve } from 'node:path';
import { FileRunCatalogue, RunSupervisor, type RunDispatch, type RunSetupHook } from '@orchestra/core';
import { readManifest } from '@orchestra/core/store';
import { openStore, storeSpec } from './run-store.js';

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

/** A run a command names: a run directory, or (with `--store` / `$ORCHESTRA_STORE`) a run id in that store. */
export interface CliRunTarget {
  /** The run's id in its catalogue. */
  id: string;
  /** The arguments that name the run again in a printed command (`<dir>`, or `<id> --store <url>`). */
  hint: string[];
  /** The store, when one was named: its display form (a URL without password). */
  store?: string;
  /** Where its resume is handed over (a database's queue). */
  dispatch?: RunDispatch;
  /** A supervisor over the run's catalogue. */
  supervisor(setup?: RunSetupHook, more?: { handlerTypes?: readonly string[] }): RunSupervisor;
  /** Closes the store's connections. */
  close(): Promise<void>;
}

/**
 * The run `given` names: with a store (`--store`, else `$ORCHESTRA_STORE`)
 * it is a run id there; otherwise a run directory, refused when it is not
 * one (`ORCH_CHECKPOINT`, as before anything is written).
 */
export async function cliRunTarget(given: string, flags: { store?: string }): Promise<CliRunTarget> {
  const spec = storeSpec(flags);
  if (spec === undefined) {
    const root = resolve(given);
    readManifest(root); // not a run (or no directory there): said as such
    return {
      id: basename(root),
      hint: [given],
      supervisor: (setup, more = {}) => cliRun(root, setup, more).supervisor,
      close: async () => {},
    };
  }
  const opened = await openStore(spec);
  await opened.catalogue.open(given); // no such run: ORCH_RUN_NOT_FOUND naming the store
  return {
    id: given,
    hint: flags.store !== undefined ? [given, '--store', opened.display] : [given],
    store: opened.display,
    ...(opened.dispatch ? { dispatch: opened.dispatch } : {}),
    supervisor: (setup, more = {}) => new RunSupervisor({ catalogue: opened.catalogue, ...(setup ? { setup } : {}), ...more, ...(opened.dispatch ? { dispatch: opened.dispatch } : {}) }),
    close: () => opened.close(),
  };
}
