import { HandlerRegistry } from '../engine/handler-registry.js';
import type { CodergenBackend } from './codergen-backend.js';
import { createCodergenHandler } from './codergen-handler.js';
import { conditionalHandler, exitHandler, startHandler } from './noop-handlers.js';
import { toolHandler } from './tool-handler.js';

/**
 * A registry with the built-in handlers: start, exit, conditional, tool, and
 * codergen when a backend is given. Other handler types (wait.human,
 * parallel, ...) register here as they are implemented.
 */
export function createDefaultRegistry(options: { backend?: CodergenBackend } = {}): HandlerRegistry {
  const registry = new HandlerRegistry()
    .register('start', startHandler)
    .register('exit', exitHandler)
    .register('conditional', conditionalHandler)
    .register('tool', toolHandler);
  if (options.backend) registry.register('codergen', createCodergenHandler(options.backend));
  return registry;
}
