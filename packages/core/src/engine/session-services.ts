import { hostName, processStartTime } from '../os/process-identity.js';
import type { ProcessLedger } from './handler.js';
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

/** A node's process ledger over the run's store. */
export function processLedger(store: RunStore, nodeId: string): ProcessLedger {
  return {
    started: (pid, command) => store.recordProcess({ pgid: pid, start_time: processStartTime(pid) ?? null, host: hostName(), node: nodeId, command }),
    exited: (pid) => store.forgetProcess(pid),
  };
}

