import { RecipeError } from '../recipe-error.js';

/**
 * A change of a session plan refused because of where the plan stands (it
 * has started, or ended, or runs already), or because of its order (a move
 * across dependencies): `ORCH_PLAN`. A front end answers it as a conflict
 * with the plan's state, not as a bad request.
 */
export class PlanConflict extends RecipeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ORCH_PLAN', message, options);
    this.name = 'PlanConflict';
  }
}
