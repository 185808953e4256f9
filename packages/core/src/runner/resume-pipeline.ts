import type { RunResult } from '../engine/run-result.js';
import type { RunStore } from '../engine/store/run-store.js';
import { withSubPipelines } from '../handlers/default-registry.js';
import { runDirectoryStore } from '../run/run-directory-store.js';
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
 *
 * @example
 * ```ts
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { loadPipeline, resumePipeline, runPipeline, simulationBackend } from '@orchestra/core';
 *
 * const { graph, source } = loadPipeline(`digraph Notes {
 *   start   [shape=Mdiamond]
 *   exit    [shape=Msquare]
 *   draft   [prompt="Draft the notes"]
 *   publish [prompt="Publish them"]
 *   start -> draft -> publish -> exit
 * }`);
 * if (!graph) throw new Error('invalid pipeline');
 * const dir = join(mkdtempSync(join(tmpdir(), 'notes-')), 'run');
 *
 * // Stop the run once draft is done (Ctrl-C does the same to orchestra run).
 * const stop = new AbortController();
 * const first = await runPipeline(graph, {
 *   backend: simulationBackend,
 *   source,
 *   logsRoot: dir,
 *   signal: stop.signal,
 *   onEvent: (event) => {
 *     if (event.type === 'stage.completed' && event.nodeId === 'draft') stop.abort('enough for now');
 *   },
 * });
 * console.log(first.status, first.completedNodes.join(' > '));
 *
 * // Later, from any process: the run goes on from where it stopped.
 * const second = await resumePipeline(dir, { backend: simulationBackend });
 * console.log(second.status, second.completedNodes.join(' > '));
 * // Prints:
 * // interrupted start > draft
 * // success start > draft > publish > exit
 * ```
 */
export async function resumePipeline(run: string | RunStore, options: ResumeOptions = {}): Promise<RunResult> {
  const store = typeof run === 'string' ? runDirectoryStore(run, { syncEveryNode: options.syncEveryNode ?? false }) : run;
  const registry = withSubPipelines(registryFor(options));
  return resumeStoredRun(store, { ...options, registry }, createChildRunner(registry, options.onChildEvent));
}
