import { EventBus } from '../engine/event-bus.js';
import type { ChildEventListener } from '../engine/child-events.js';
import type { ChildRunner } from '../engine/handler.js';
import type { HandlerRegistry } from '../engine/handler-registry.js';
import { planRun } from '../engine/plan.js';
import { startRun } from '../engine/run-engine.js';
import { resumeStoredRun } from './resume-run.js';

/**
 * Runs the child pipelines a run's nodes start (sub-pipelines, manager
 * loops) with the run's own handlers (`registry`, the sub-pipeline handlers
 * included), in the stores the parent's store gives them: a child's own
 * children go the same way. `onChildEvent` hears the events of all of them
 * (the engine forwards them, naming the child and the node that started it).
 */
export function createChildRunner(registry: HandlerRegistry, onChildEvent?: ChildEventListener): ChildRunner {
  const runner: ChildRunner = {
    handlerTypes: registry.types(),
    ...(onChildEvent ? { onChildEvent } : {}),
    async start(store, request) {
      const events = new EventBus();
      const off = request.onEvent ? events.on(request.onEvent) : () => {};
      try {
        return await startRun(planRun(request.graph, registry), store, {
          workdir: request.workdir,
          signal: request.signal,
          source: request.source,
          sourceFile: request.sourceFile,
          ...(request.initialContext ? { initialContext: request.initialContext } : {}),
          childRunner: runner,
        }, events);
      } finally {
        off();
        events.close();
      }
    },
    resume: (store, options) =>
      resumeStoredRun(store, { registry, signal: options.signal, workdir: options.workdir, ...(options.onEvent ? { onEvent: options.onEvent } : {}) }, runner),
  };
  return runner;
}
