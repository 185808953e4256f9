import type { CodergenBackend, Handler } from '@orchestra/core';
import { RECIPE_NODE_TYPES } from '../compile-recipe.js';
import type { RecipeTool } from '../tool-types.js';
import { createAgentStepHandler } from './agent-step-handler.js';
import { dodHandler } from './dod-handler.js';
import { skipStepHandler, stopHandler } from './flow-handlers.js';
import { createToolStepHandler } from './tool-step-handler.js';

/** The node types of compiled recipes. */
export const RECIPE_HANDLER_TYPES: readonly string[] = Object.values(RECIPE_NODE_TYPES);

/**
 * The handlers a compiled recipe's nodes need, by type: phase-A tools
 * (`tools`, registered by name), phase-B agents over `backend`'s tool-less
 * role calls, skip, stop and the Definition of Done. Give them to a run
 * (`RunSetup.handlers`, or a registry of your own).
 */
export function createRecipeHandlers(options: { backend: CodergenBackend; tools: readonly RecipeTool[] }): Record<string, Handler> {
  return {
    [RECIPE_NODE_TYPES.tool]: createToolStepHandler(new Map(options.tools.map((t) => [t.name, t]))),
    [RECIPE_NODE_TYPES.agent]: createAgentStepHandler(options.backend),
    [RECIPE_NODE_TYPES.skip]: skipStepHandler,
    [RECIPE_NODE_TYPES.stop]: stopHandler,
    [RECIPE_NODE_TYPES.dod]: dodHandler,
  };
}
