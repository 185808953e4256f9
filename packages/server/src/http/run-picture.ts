import { loadPipeline } from '@orchestra/core';
import { nodeStates } from '../render/node-states.js';
import { renderPipelineSvg } from '../render/pipeline-picture.js';
import { ApiError } from './api-error.js';
import type { ServerRuns } from '../runs/server-runs.js';

/**
 * The SVG picture of run `id`'s pipeline (its stored copy) with each node
 * coloured by its state now (the checkpoint and the journal entries after
 * it), drawn by the same code as `orchestra render --run`.
 */
export async function runPicture(runs: ServerRuns, id: string): Promise<string> {
  const report = await runs.report(id);
  const source = await runs.source(id);
  const loaded = source !== undefined ? loadPipeline(source, { file: `${id}/pipeline.dot` }) : undefined;
  if (!loaded?.graph) throw new ApiError(422, 'ORCH_NO_PIPELINE', `run ${id} keeps no readable copy of its pipeline to draw`);
  const { state } = report.restored;
  const ended = state.status === 'completed' || state.status === 'failed' || state.status === 'restarted';
  const states = nodeStates(loaded.graph, {
    completed_nodes: state.completedNodes,
    node_outcomes: state.nodeOutcomes,
    current_node: ended ? state.currentNode : (state.nextNode ?? state.currentNode),
    status: state.status,
  });
  return renderPipelineSvg(loaded.graph, states);
}
