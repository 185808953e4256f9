import type { Graph } from '../graph/model.js';
import { startRun } from '../engine/run-engine.js';
import type { RunResult } from '../engine/run-result.js';
import { planRun } from '../engine/plan.js';
import type { RunStore } from '../engine/store/run-store.js';
import { defaultLogsRoot } from '../run/file-run-store.js';
import { runDirectoryStore } from '../run/run-directory-store.js';
import { withSubPipelines } from '../handlers/default-registry.js';
import { createChildRunner } from './child-runner.js';
import { engineOptions, openEvents, registryFor, type RunOptions } from './run-options.js';

/** The store a new run goes in: the given one, else a run directory. */
function storeFor(graph: Graph, options: RunOptions, workdir: string): RunStore {
  if (options.store) return options.store;
  return runDirectoryStore(options.logsRoot ?? defaultLogsRoot(graph.name, workdir), { syncEveryNode: options.syncEveryNode ?? false });
}

/**
 * Runs a validated pipeline graph (spec §3) and resolves when it ends. Keeps
 * the run in `options.store` (default: a run directory, see
 * docs/run-directory.md), holding its lease while it runs. Throws before the
 * first node when the graph has errors, a node has no handler, or the store
 * already holds a run; afterwards a failing stage fails the run, it never
 * throws.
 *
 * @example
 * ```ts
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { loadPipeline, runPipeline, simulationBackend } from '@orchestra/core';
 *
 * const { graph, source } = loadPipeline(`digraph Notes {
 *   graph [goal="Release 1.4"]
 *   start [shape=Mdiamond]
 *   exit  [shape=Msquare]
 *   draft [prompt="Draft the release notes for $goal"]
 *   start -> draft -> exit
 * }`);
 * if (!graph) throw new Error('invalid pipeline');
 * const result = await runPipeline(graph, {
 *   backend: simulationBackend, // answers LLM stages without a model
 *   source, // kept in the run directory, so that the run can be resumed
 *   logsRoot: join(mkdtempSync(join(tmpdir(), 'notes-')), 'run'),
 *   initialContext: { audience: 'users' },
 * });
 * console.log(result.status, result.completedNodes.join(' > '));
 * console.log(result.context.last_response);
 * // Prints:
 * // success start > draft > exit
 * // [Simulated] Response for stage: draft
 * ```
 */
export async function runPipeline(graph: Graph, options: RunOptions = {}): Promise<RunResult> {
  const registry = withSubPipelines(registryFor(options));
  const plan = planRun(graph, registry);
  const workdir = options.workdir ?? process.cwd();
  const { events, release } = openEvents(options);
  try {
    return await startRun(plan, storeFor(graph, options, workdir), { ...engineOptions(options, workdir), childRunner: createChildRunner(registry, options.onChildEvent) }, events);
  } finally {
    release();
  }
}
