import { hostName, processStartTime } from '../os/process-identity.js';
import type { ChildRunner, ChildRuns, ProcessLedger } from './handler.js';
import type { ProgressStore } from './node-progress.js';
import { toJsonValue } from './run-context.js';
import type { Session } from './session.js';
import type { RunStore } from './store/run-store.js';

/** In-node progress kept in the session's state and stored with the checkpoint at once. */
export function progressStore(session: Session): ProgressStore {
  const { state } = session;
  return {
    get: (nodeId) => (nodeId in state.nodeProgress ? structuredClone(state.nodeProgress[nodeId]) : undefined),
    save: (nodeId, data) => {
      // Data that is not JSON throws here, at the call.
      if (data === undefined) delete state.nodeProgress[nodeId];
      else state.nodeProgress[nodeId] = toJsonValue(nodeId, data, `the progress saved by node ${JSON.stringify(nodeId)}`);
      return Promise.resolve(session.recorder.checkpoint(state, session.context, true)).then(() => {
        session.events.emit({ type: 'checkpoint.saved', nodeId, completedNodes: state.completedNodes.length, file: true });
      });
    },
    discard: (nodeId) => {
      delete state.nodeProgress[nodeId];
    },
  };
}

/**
 * A node's way to run child pipelines: stores from the run's store
 * ({@link RunStore.child}), runs through `runner`. Without a runner a child
 * run is refused with a message saying so.
 */
export function childRuns(store: RunStore, nodeId: string, runner: ChildRunner | undefined): ChildRuns {
  const missing = (): Promise<never> => Promise.reject(new Error(`node ${nodeId} runs a child pipeline, but this run was started without a child runner (start runs with runPipeline or resumePipeline)`));
  return {
    handlerTypes: runner?.handlerTypes ?? [],
    store: (name) => store.child(nodeId, name),
    start: (child, request) => (runner ? runner.start(child, request) : missing()),
    resume: (child, options) => (runner ? runner.resume(child, options) : missing()),
  };
}

/** A node's process ledger over the run's store. */
export function processLedger(store: RunStore, nodeId: string): ProcessLedger {
  return {
    started: (pid, command) => store.recordProcess({ pgid: pid, start_time: processStartTime(pid) ?? null, host: hostName(), node: nodeId, command }),
    exited: (pid) => store.forgetProcess(pid),
  };
}

