import type { RunResult } from '../engine/run-result.js';
import type { RunStore } from '../engine/store/run-store.js';
import { withSubPipelines } from '../handlers/default-registry.js';
import { FileRunStore } from '../run/file-run-store.js';
import { createChildRunner } from './child-runner.js';
import { registryFor } from './run-options.js';
import { resumeStoredRun, type ResumeOptions } from './resume-run.js';

export type { ResumeOptions } from './resume-run.js';

/**
 * Continues a run (spec §5.3): takes the run's lease (a run another live
 * process drives is refused with `RunLockedError`), restores the state from
 * the checkpoint and the journal entries after it, stops commands a dead
 * owner left running, and runs on from the next node in the working
 * directory the run started in (unless `options.workdir` says otherwise).
 * A run that already ended is reported as it ended (`alreadyFinished`), not
 * run again. Missing, damaged or inconsistent state is refused with a
 * {@link CheckpointError} and left untouched: a `pipeline.dot` that no longer
 * matches the manifest's `pipeline_sha256`, or a checkpoint its journal does
 * not give.
 *
 * @param run the run directory, or the store holding the run.
 */
export async function resumePipeline(run: string | RunStore, options: ResumeOptions = {}): Promise<RunResult> {
  const store = typeof run === 'string' ? new FileRunStore(run, { syncEveryNode: options.syncEveryNode ?? false }) : run;
  const registry = withSubPipelines(registryFor(options));
  return resumeStoredRun(store, { ...options, registry }, createChildRunner(registry));
}
