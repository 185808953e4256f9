import type { Graph } from '../graph/model.js';
import { createRunRecord } from '../engine/run-engine.js';
import { planRun } from '../engine/plan.js';
import type { RunStore } from '../engine/store/run-store.js';
import { withSubPipelines } from '../handlers/default-registry.js';
import { engineOptions, registryFor, type RunOptions } from './run-options.js';

/**
 * Records a new run of a validated pipeline in `options.store` without
 * running it: the manifest (with its initial context and run options) and
 * the pipeline's copy. `resumePipeline` on the store, in this process or
 * any other sharing it (a worker), starts it from its start node. Throws,
 * writing nothing, when a node has no handler or the store already holds a
 * run.
 */
export async function createRun(graph: Graph, options: RunOptions & { store: RunStore }): Promise<RunStore> {
  const plan = planRun(graph, withSubPipelines(registryFor(options)));
  const workdir = options.workdir ?? process.cwd();
  await createRunRecord(plan, options.store, engineOptions(options, workdir));
  return options.store;
}
