import { HandlerRegistry } from '../engine/handler-registry.js';
import type { CodergenBackend } from './codergen-backend.js';
import { createCodergenHandler } from './codergen-handler.js';
import { fanInHandler } from './fan-in-handler.js';
import { conditionalHandler, exitHandler, startHandler } from './noop-handlers.js';
import { parallelHandler } from './parallel-handler.js';
import { toolHandler } from './tool-handler.js';

/**
 * A registry with the built-in handlers: start, exit, conditional, tool,
 * parallel, parallel.fan_in, and codergen when a backend is given. Other
 * handler types (wait.human, stack.manager_loop) register here as they are
 * implemented.
 */
export function createDefaultRegistry(options: { backend?: CodergenBackend } = {}): HandlerRegistry {
  const registry = new HandlerRegistry()
    .register('start', startHandler)
    .register('exit', exitHandler)
    .register('conditional', conditionalHandler)
    .register('tool', toolHandler)
    .register('parallel', parallelHandler)
    .register('parallel.fan_in', fanInHandler);
  if (options.backend) registry.register('codergen', createCodergenHandler(options.backend));
  return registry;
}
