import type { Answer } from '../engine/question.js';
import { readPendingQuestions, readRecordedAnswers } from '../engine/store/pending-questions.js';
import type { Checkpoint, LeaseHolder, Manifest, PendingQuestions } from '../engine/store/records.js';
import { checkPipelineHash } from '../engine/store/pipeline-hash.js';
import { restore, type RestoredRun } from '../engine/store/restore.js';
import { CheckpointError } from '../engine/store/store-errors.js';
import { isHolderAlive } from '../os/process-identity.js';
import { parsePipelineSource } from '../dot/parse-pipeline-source.js';
import { exitGateJump } from '../engine/decide.js';
import type { Graph } from '../graph/model.js';
import type { RunStore } from '../engine/store/run-store.js';
import { runDirectoryStore } from './run-directory-store.js';

/**
 * Where a run stands, as `orchestra status` reports it:
 * `completed`, `failed`, `parked` (waiting for an answer), `running` (a live
 * process drives it), `stopped` (interrupted, or its process died: resume
 * it), `restarted` (a `loop_restart` continues it in another directory).
 */
export type RunState = 'completed' | 'failed' | 'parked' | 'running' | 'stopped' | 'restarted';

/** Everything `orchestra status` (and the server) reads of a run, without taking its lease. */
export interface RunReport {
  /** Where the run is kept: its directory with the file store ({@link RunStore.location}). */
  dir: string;
  manifest: Manifest;
  checkpoint: Checkpoint | undefined;
  restored: RestoredRun;
  /** Journal entries written after the checkpoint (the nodes the checkpoint does not show yet). */
  sinceCheckpoint: number;
  state: RunState;
  owner: (LeaseHolder & { alive: boolean }) | undefined;
  pending: PendingQuestions['questions'];
  answers: Record<string, Answer>;
}

function stateOf(status: RestoredRun['state']['status'], ownerAlive: boolean): RunState {
  if (ownerAlive) return 'running';
  if (status === 'running' || status === 'interrupted') return 'stopped';
  return status;
}

/**
 * The run's copy of its pipeline, checked against the manifest's hash, so
 * that a changed copy, a journal naming a node the pipeline does not have,
 * or a checkpoint the journal does not give, is reported as resume would
 * refuse it; undefined when the run keeps no copy
 * (a library run given its graph).
 */
async function pipelineGraph(store: RunStore, manifest: Manifest): Promise<Graph | undefined> {
  const source = await store.readSource();
  if (source === undefined) return undefined;
  checkPipelineHash(store.location, manifest, source);
  // Runs of one pipeline share its parsed graph (a listing of many runs parses each pipeline once).
  const hash = manifest.pipeline_sha256 as string;
  const known = parsedPipelines.get(hash);
  if (known) return known;
  const { graph } = parsePipelineSource(source, `${store.location}/pipeline.dot`);
  if (!graph) throw new CheckpointError(`${store.location}/pipeline.dot, the run's copy of its pipeline, no longer parses`);
  if (parsedPipelines.size >= PARSED_PIPELINES_KEPT) parsedPipelines.delete(parsedPipelines.keys().next().value as string);
  parsedPipelines.set(hash, graph);
  return graph;
}

/** How many parsed pipelines {@link pipelineGraph} keeps (by the SHA-256 of their source, oldest dropped first). */
const PARSED_PIPELINES_KEPT = 64;
const parsedPipelines = new Map<string, Graph>();

/**
 * Reads where a run stands: the checkpoint and journal folded by `restore`,
 * the lease holder, pending questions and answers. `run` is a run directory
 * or the store holding the run. Throws `CheckpointError` for a run resume
 * would refuse.
 */
export async function readRunReport(run: string | RunStore): Promise<RunReport> {
  const store = typeof run === 'string' ? runDirectoryStore(run) : run;
  const root = store.location;
  const manifest = await store.readManifest();
  const checkpoint = await store.readCheckpoint();
  const journal = await store.readJournal();
  if (journal.problem) throw new CheckpointError(`${root}: ${journal.problem}`);
  const graph = await pipelineGraph(store, manifest);
  const restored = restore(checkpoint, journal.entries, manifest.start_node, graph && new Set(graph.nodes.keys()), {}, graph && exitGateJump(graph));
  const holder = await store.leaseHolder();
  const owner = holder ? { ...holder, alive: isHolderAlive(holder) } : undefined;
  const state = stateOf(restored.state.status, owner?.alive === true);
  return {
    dir: root,
    manifest,
    checkpoint,
    restored,
    sinceCheckpoint: journal.entries.filter((e) => e.seq > (checkpoint?.journal_seq ?? 0)).length,
    state,
    owner,
    pending: restored.state.status === 'parked' ? await readPendingQuestions(store) : [],
    answers: await readRecordedAnswers(store),
  };
}
