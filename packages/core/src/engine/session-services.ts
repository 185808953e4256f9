import { hostName, processStartTime } from '../os/process-identity.js';
import type { ChildEventListener, ChildRunOrigin } from './child-events.js';
import type { RunEvent } from './events.js';
import type { ChildRunOptions, ChildRunner, ChildRuns, ProcessLedger } from './handler.js';
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

/** The child's options with its events also forwarded to the runner's `onChildEvent`, naming the child and the node that started it. */
function forwarded<T extends ChildRunOptions>(options: T, child: RunStore, parent: RunStore, nodeId: string, listener: ChildEventListener | undefined): T {
  if (!listener) return options;
  const origin: ChildRunOrigin = { logsRoot: child.location, parentLogsRoot: parent.location, nodeId };
  const own = options.onEvent;
  return {
    ...options,
    onEvent: (event: RunEvent) => {
      own?.(event);
      listener(event, origin);
    },
  };
}

/**
 * A node's way to run child pipelines: stores from the run's store
 * ({@link RunStore.child}), runs through `runner`. Without a runner a child
 * run is refused with a message saying so. The child's events also go to
 * the runner's `onChildEvent`, when it has one.
 */
export function childRuns(store: RunStore, nodeId: string, runner: ChildRunner | undefined): ChildRuns {
  const missing = (): Promise<never> => Promise.reject(new Error(`node ${nodeId} runs a child pipeline, but this run was started without a child runner (start runs with runPipeline or resumePipeline)`));
  return {
    handlerTypes: runner?.handlerTypes ?? [],
    store: (name) => store.child(nodeId, name),
    start: (child, request) => (runner ? runner.start(child, forwarded(request, child, store, nodeId, runner.onChildEvent)) : missing()),
    resume: (child, options) => (runner ? runner.resume(child, forwarded(options, child, store, nodeId, runner.onChildEvent)) : missing()),
  };
}

/** A node's process ledger over the run's store. */
export function processLedger(store: RunStore, nodeId: string): ProcessLedger {
  return {
    started: (pid, command) => store.recordProcess({ pgid: pid, start_time: processStartTime(pid) ?? null, host: hostName(), node: nodeId, command }),
    exited: (pid) => store.forgetProcess(pid),
  };
}

