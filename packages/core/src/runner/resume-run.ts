import type { ChildRunner } from '../engine/handler.js';
import type { HandlerRegistry } from '../engine/handler-registry.js';
import type { Graph } from '../graph/model.js';
import { loadPipeline } from '../pipeline/pipeline-loader.js';
import { ValidationError } from '../lint/validate.js';
import { continueRun, startRestartedRun } from '../engine/run-engine.js';
import type { RunResult } from '../engine/run-result.js';
import type { JsonValue } from '../engine/outcome.js';
import { planRun } from '../engine/plan.js';
import { exitGateJump } from '../engine/decide.js';
import { checkPipelineHash } from '../engine/store/pipeline-hash.js';
import { restore } from '../engine/store/restore.js';
import type { RunStore } from '../engine/store/run-store.js';
import { CheckpointError } from '../engine/store/store-errors.js';
import { engineOptions, openEvents, type RunOptions } from './run-options.js';

/** Options of {@link resumePipeline}: those of a run, plus the graph when the run was stored without its source. */
export interface ResumeOptions extends Omit<RunOptions, 'logsRoot' | 'store' | 'source' | 'sourceFile' | 'initialContext' | 'runOptions'> {
  graph?: Graph;
}

function loadRunGraph(store: RunStore, source: string | undefined, knownHandlerTypes: string[]): Graph {
  if (source === undefined) throw new CheckpointError(`${store.location} has no copy of the pipeline it was started with; pass the graph to resume it`);
  const loaded = loadPipeline(source, { file: `${store.location}/pipeline.dot`, knownHandlerTypes });
  if (!loaded.graph || !loaded.ok) throw new ValidationError(loaded.diagnostics);
  return loaded.graph;
}

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
 * `options.registry` runs its nodes (already with the sub-pipeline handlers);
 * `childRunner` runs the child pipelines they start.
 */
export async function resumeStoredRun(store: RunStore, options: ResumeOptions & { registry: HandlerRegistry }, childRunner: ChildRunner): Promise<RunResult> {
  const manifest = await store.readManifest();
  const lease = await store.acquire();
  let leaseHeld = true;
  const { events, release } = openEvents(options);
  try {
    const { registry } = options;
    const source = await store.readSource();
    // The run's own copy must be what it was started with: a copy edited since would run commands nobody started.
    if (options.graph === undefined && source !== undefined) checkPipelineHash(store.location, manifest, source);
    const graph = options.graph ?? loadRunGraph(store, source, registry.types());
    const journal = await store.readJournal();
    if (journal.problem) throw new CheckpointError(`${store.location}: ${journal.problem}; the run was left untouched`);
    // Without a checkpoint the run starts over with what it was started with (as a fresh run's context is made).
    const initialContext = { ...(manifest.initial_context as Record<string, JsonValue>), 'graph.goal': graph.attributes.goal ?? '' };
    const restored = restore(await store.readCheckpoint(), journal.entries, manifest.start_node, new Set(graph.nodes.keys()), initialContext, exitGateJump(graph));
    const { state } = restored;
    const workdir = options.workdir ?? manifest.workdir ?? process.cwd();
    const engine = engineOptions(
      {
        ...options,
        initialContext: manifest.initial_context,
        ...(manifest.source_file ? { sourceFile: manifest.source_file } : {}),
        ...(manifest.run_options ? { runOptions: manifest.run_options } : {}),
      },
      workdir,
    );
    engine.childRunner = childRunner;
    if (source !== undefined) engine.source = source;

    // A run that ended on a loop_restart goes on in its successor: resume that one, or start it if the process died before it was created.
    if (state.status === 'restarted') {
      const successor = store.successor();
      await lease.release();
      leaseHeld = false;
      if (await successor.exists()) return await resumeStoredRun(successor, options, childRunner);
      return await startRestartedRun(planRun(graph, registry), engine, events, { restartAt: state.nextNode ?? manifest.start_node, store: successor, from: store.location });
    }
    if (state.status === 'completed' || state.status === 'failed') {
      return {
        status: state.status === 'failed' ? 'fail' : 'success',
        completedNodes: state.completedNodes,
        context: restored.context,
        logsRoot: store.location,
        ...(state.failureReason ? { failureReason: state.failureReason } : {}),
        retries: state.totalRetries,
        durationMs: 0,
        ...(state.usage ? { usage: state.usage } : {}),
        alreadyFinished: true,
      };
    }
    return await continueRun(planRun(graph, registry), store, engine, events, restored, lease);
  } finally {
    release();
    if (leaseHeld) await lease.release();
  }
}
