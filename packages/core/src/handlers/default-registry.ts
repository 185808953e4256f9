import { HandlerRegistry } from '../engine/handler-registry.js';
import type { CodergenBackend } from './codergen-backend.js';
import { createCodergenHandler } from './codergen-handler.js';
import { fanInHandler } from './fan-in-handler.js';
import { conditionalHandler, exitHandler, startHandler } from './noop-handlers.js';
import { parallelHandler } from './parallel-handler.js';
import { toolHandler } from './tool-handler.js';
import { createWaitHumanHandler } from './wait-human-handler.js';
import type { Interviewer } from '../human/interviewer.js';
import { AutoApproveInterviewer } from '../human/simple-interviewers.js';

/**
 * A registry with the built-in handlers: start, exit, conditional, tool,
 * parallel, parallel.fan_in, wait.human (asking `interviewer`, or
 * auto-approving when none is given), and codergen when a backend is given.
 * `stack.manager_loop` is not implemented yet.
 */
export function createDefaultRegistry(options: { backend?: CodergenBackend; interviewer?: Interviewer } = {}): HandlerRegistry {
  const registry = new HandlerRegistry()
    .register('start', startHandler)
    .register('exit', exitHandler)
    .register('conditional', conditionalHandler)
    .register('tool', toolHandler)
    .register('parallel', parallelHandler)
    .register('parallel.fan_in', fanInHandler)
    .register('wait.human', createWaitHumanHandler(options.interviewer ?? new AutoApproveInterviewer()));
  if (options.backend) registry.register('codergen', createCodergenHandler(options.backend));
  return registry;
}
