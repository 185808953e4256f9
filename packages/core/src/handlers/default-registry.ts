import type { Handler } from '../engine/handler.js';
import { HandlerRegistry } from '../engine/handler-registry.js';
import type { Interviewer } from '../human/interviewer.js';
import { AutoApproveInterviewer } from '../human/simple-interviewers.js';
import type { CodergenBackend } from './codergen-backend.js';
import { createCodergenDispatcher, type PhasedMode } from './codergen-dispatcher.js';
import { createCodergenHandler } from './codergen-handler.js';
import { isConversational } from './conversational-backend.js';
import { fanInHandler } from './fan-in-handler.js';
import { MANAGER_LOOP_TYPE, managerLoopHandler } from './manager-loop-handler.js';
import { SUB_PIPELINE_TYPE, subPipelineHandler } from './sub-pipeline-handler.js';
import { createInteractiveHandler } from './interactive-handler.js';
import { conditionalHandler, exitHandler, startHandler } from './noop-handlers.js';
import { parallelHandler } from './parallel-handler.js';
import { toolHandler } from './tool-handler.js';
import { createWaitHumanHandler } from './wait-human-handler.js';
import { createConferenceHandler } from './conference/conference-handler.js';
import { CONFERENCE_TYPE } from '../graph/conference-settings.js';

/**
 * The `codergen` handler over a backend: single-shot stages through
 * `backend.run`, and, when the backend is also a `ConversationalBackend`,
 * interactive stages (`agent.mode="interactive"`) talking with `interviewer`.
 */
export function createLlmHandler(backend: CodergenBackend, interviewer: Interviewer, phasedMode: PhasedMode = 'direct'): Handler {
  const interactive = isConversational(backend) ? createInteractiveHandler(backend, interviewer) : undefined;
  return createCodergenDispatcher(createCodergenHandler(backend), interactive, phasedMode);
}

/**
 * A registry with the built-in handlers: start, exit, conditional, tool,
 * parallel, parallel.fan_in, wait.human (asking `interviewer`, or
 * auto-approving when none is given), the sub-pipeline node (`pipeline`) and
 * the manager loop (`stack.manager_loop`), and codergen when a backend is
 * given (interactive nodes talk with the same interviewer), with conference
 * nodes (`type="conference"`) over the same backend.
 */
export function createDefaultRegistry(options: { backend?: CodergenBackend; interviewer?: Interviewer; phasedMode?: PhasedMode } = {}): HandlerRegistry {
  const interviewer = options.interviewer ?? new AutoApproveInterviewer();
  const registry = new HandlerRegistry()
    .register('start', startHandler)
    .register('exit', exitHandler)
    .register('conditional', conditionalHandler)
    .register('tool', toolHandler)
    .register('parallel', parallelHandler)
    .register('parallel.fan_in', fanInHandler)
    .register('wait.human', createWaitHumanHandler(interviewer))
    .register(SUB_PIPELINE_TYPE, subPipelineHandler())
    .register(MANAGER_LOOP_TYPE, managerLoopHandler());
  if (options.backend) registry.register('codergen', createLlmHandler(options.backend, interviewer, options.phasedMode)).register(CONFERENCE_TYPE, createConferenceHandler(options.backend));
  return registry;
}

/**
 * `registry` with the handlers that run other pipelines (the sub-pipeline
 * node and the manager loop), each unless it has one of its own: a copy when
 * one is added, else `registry` itself.
 */
export function withSubPipelines(registry: HandlerRegistry): HandlerRegistry {
  if (registry.get(SUB_PIPELINE_TYPE) && registry.get(MANAGER_LOOP_TYPE)) return registry;
  const copy = registry.clone();
  if (!copy.get(SUB_PIPELINE_TYPE)) copy.register(SUB_PIPELINE_TYPE, subPipelineHandler());
  if (!copy.get(MANAGER_LOOP_TYPE)) copy.register(MANAGER_LOOP_TYPE, managerLoopHandler());
  return copy;
}
