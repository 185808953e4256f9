import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Graph } from '../graph/model.js';
import { loadPipeline } from '../pipeline/pipeline-loader.js';
import { CheckpointError, readCheckpoint } from '../run/checkpoint.js';
import { dropTornJournalTail, readJournal } from '../run/journal.js';
import { readManifest } from '../run/run-directory.js';
import { RUN_FILES } from '../run/run-files.js';
import { ValidationError } from '../lint/validate.js';
import { applyEntry, type EngineState } from './engine-state.js';
import { RunContext } from './run-context.js';
import { usageFromFile } from './usage.js';
import { continueSession, planRun, registryFor, startRestartedRun, type RunOptions, type RunResult } from './run-pipeline.js';

/** Options of {@link resumePipeline}: those of a run, plus the graph when the run directory has no `pipeline.dot`. */
export interface ResumeOptions extends Omit<RunOptions, 'logsRoot' | 'source' | 'sourceFile' | 'initialContext'> {
  graph?: Graph;
}

function loadRunGraph(logsRoot: string, knownHandlerTypes: string[]): Graph {
  const file = join(logsRoot, RUN_FILES.pipeline);
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CheckpointError(`cannot read ${file}, the pipeline this run was started with; pass the graph to resume it`, { cause: error });
  }
  const loaded = loadPipeline(source, { file, knownHandlerTypes });
  if (!loaded.graph || !loaded.ok) throw new ValidationError(loaded.diagnostics);
  return loaded.graph;
}

/** The pipeline copy of a run directory, as run options (none when it has none). */
function sourceOf(logsRoot: string): { source?: string } {
  const file = join(logsRoot, RUN_FILES.pipeline);
  return existsSync(file) ? { source: readFileSync(file, 'utf8') } : {};
}

/**
 * Continues a run from its directory (spec §5.3): restores the context,
 * completed nodes and retry counters from `checkpoint.json`, replays the
 * journal lines written after it, and runs on from the next node. A run that
 * already ended is reported as it ended (`alreadyFinished`), not run again.
 * A missing, corrupt or foreign checkpoint is refused with a
 * {@link CheckpointError} and left untouched.
 */
export async function resumePipeline(logsRoot: string, options: ResumeOptions = {}): Promise<RunResult> {
  const manifest = readManifest(logsRoot);
  const checkpoint = readCheckpoint(logsRoot);
  const context = RunContext.restore(checkpoint.context, checkpoint.logs);
  const state: EngineState = {
    completedNodes: [...checkpoint.completed_nodes],
    nodeRetries: { ...checkpoint.node_retries },
    nodeOutcomes: { ...checkpoint.node_outcomes },
    totalRetries: checkpoint.total_retries,
    currentNode: checkpoint.current_node,
    nextNode: checkpoint.next_node,
    seq: checkpoint.journal_seq,
    status: checkpoint.status,
    failureReason: checkpoint.failure_reason,
    restartedTo: checkpoint.restarted_to,
    nodeProgress: { ...checkpoint.node_progress },
    usage: checkpoint.token_usage ? usageFromFile(checkpoint.token_usage) : undefined,
  };
  const journal = readJournal(logsRoot);
  if (journal.problem) throw new CheckpointError(`${logsRoot}: ${journal.problem}; the run directory was left untouched`);
  for (const entry of journal.entries) {
    if (entry.seq <= state.seq) continue;
    if (entry.seq !== state.seq + 1) throw new CheckpointError(`${logsRoot}: journal.jsonl skips from entry ${state.seq} to ${entry.seq}; the run directory was left untouched`);
    context.applyUpdates(entry.context);
    for (const line of entry.logs ?? []) context.appendLog(line);
    applyEntry(state, entry);
  }
  context.takeChanges();
  context.takeNewLogs();

  // A run that ended on a loop_restart goes on in another directory: resume that one, or start
  // it if the process died before it was created.
  if (state.status === 'restarted' && state.restartedTo) {
    if (existsSync(join(state.restartedTo, RUN_FILES.manifest))) return resumePipeline(state.restartedTo, options);
    const registry = registryFor(options);
    const plan = planRun(options.graph ?? loadRunGraph(logsRoot, registry.types()), registry);
    return startRestartedRun(plan, { ...options, initialContext: manifest.initial_context, ...sourceOf(logsRoot) }, {
      restartAt: state.nextNode ?? plan.startNode,
      logsRoot: state.restartedTo,
      from: logsRoot,
    });
  }
  if (state.status === 'completed' || state.status === 'failed' || state.status === 'restarted') {
    return {
      status: state.status === 'failed' ? 'fail' : 'success',
      completedNodes: state.completedNodes,
      context: context.snapshot(),
      logsRoot,
      ...(state.failureReason ? { failureReason: state.failureReason } : {}),
      retries: state.totalRetries,
      durationMs: 0,
      ...(state.usage ? { usage: state.usage } : {}),
      alreadyFinished: true,
    };
  }
  const registry = registryFor(options);
  const plan = planRun(options.graph ?? loadRunGraph(logsRoot, registry.types()), registry);
  // New lines must not be glued onto a line a crash cut short.
  if (journal.tornBytes > 0) dropTornJournalTail(logsRoot, journal.validBytes);
  return continueSession({ plan, options: { ...options, initialContext: manifest.initial_context }, logsRoot, context, state });
}
