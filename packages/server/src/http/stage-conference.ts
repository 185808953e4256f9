import { OrchestraError, RunUnreadableError, type RunReport } from '@orchestra/core';
import { parsePipelineSource } from '@orchestra/core/loader';
import type { ConferenceStageJson } from '../api-types.js';
import { readConferenceRecord } from '../conference/conference-record.js';
import type { ServerRuns } from '../runs/server-runs.js';
import { ApiError } from './api-error.js';

/** Whether the run has reached node `nodeId`: it completed it at least once, or runs it (or goes on with it) now. */
function reached(report: RunReport, nodeId: string): boolean {
  const { state } = report.restored;
  return state.completedNodes.includes(nodeId) || state.nextNode === nodeId;
}

/**
 * `GET /pipelines/{id}/stages/{node}/conference`: the conference record of
 * stage `nodeId` of run `id`, read through the run's store. `nodeId` must be
 * a node of the run's own copy of its pipeline (404 `ORCH_NOT_FOUND`
 * otherwise; 422 `ORCH_NO_PIPELINE` when it keeps none), so no stage is
 * opened for a name the request made up; a stage the run has not reached is
 * not opened either (opening one creates it). 404 `ORCH_NOT_FOUND` when the
 * stage has no `conference.json`; 422 when it cannot be read.
 */
export async function stageConference(runs: ServerRuns, id: string, nodeId: string): Promise<ConferenceStageJson> {
  const report = await runs.report(id);
  const source = await runs.source(id);
  const graph = source !== undefined ? parsePipelineSource(source, `${id}/pipeline.dot`).graph : undefined;
  if (!graph) throw new ApiError(422, 'ORCH_NO_PIPELINE', `run ${id} keeps no readable copy of its pipeline to find node ${JSON.stringify(nodeId)} in`);
  if (!graph.nodes.has(nodeId)) throw new ApiError(404, 'ORCH_NOT_FOUND', `the pipeline of run ${id} has no node ${JSON.stringify(nodeId)}`);
  const none = new ApiError(404, 'ORCH_NOT_FOUND', `stage ${nodeId} of run ${id} has no conference record`);
  if (!reached(report, nodeId)) throw none;
  const store = await runs.supervisor.store(id);
  let record: ConferenceStageJson | undefined;
  try {
    record = await readConferenceRecord(await store.stage(nodeId), `${store.location}/${nodeId}`);
  } catch (error) {
    if (error instanceof OrchestraError) throw new RunUnreadableError(id, error);
    throw error;
  }
  if (!record) throw none;
  return record;
}
