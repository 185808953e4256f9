import { OrchestraError } from '@orchestra/core';

/** Every `code` an error thrown by `@orchestra/recipes` carries. */
export const RECIPES_ERROR_CODES = ['ORCH_RECIPE', 'ORCH_RECIPE_NOT_FOUND', 'ORCH_RECIPE_CHANGED', 'ORCH_ROUTER', 'ORCH_PLAN'] as const;
/** A `code` of an error thrown by `@orchestra/recipes`. */
export type RecipesErrorCode = (typeof RECIPES_ERROR_CODES)[number];

/**
 * A recipe that cannot be used: a file that is not valid YAML or not a
 * recipe (`ORCH_RECIPE`, the message starting `file:line:col:`), wiring that
 * does not hold, an unknown recipe id (`ORCH_RECIPE_NOT_FOUND`), a recipe
 * changed under a parked run (`ORCH_RECIPE_CHANGED`), a session plan that
 * cannot be used (`ORCH_PLAN`: damaged, a dependency cycle, an unknown task).
 */
export class RecipeError extends OrchestraError<Exclude<RecipesErrorCode, 'ORCH_ROUTER'>> {
  constructor(code: Exclude<RecipesErrorCode, 'ORCH_ROUTER'>, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'RecipeError';
  }
}
