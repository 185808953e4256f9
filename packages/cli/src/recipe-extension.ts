import type { Graph } from '@orchestra/core/loader';
import type { RunExtension } from './run-extension.js';

/** Whether a pipeline is a compiled recipe (`orchestra recipe run` made it). */
export function isRecipeGraph(graph: Pick<Graph, 'attributes'>): boolean {
  return Boolean(graph.attributes['recipe.id']);
}

/**
 * What a compiled recipe's run needs besides the built-ins: its node types'
 * handlers over the run's backend (the built-in phase-A tools), and, for a
 * resume, the refusal of a recipe changed since the run started. Loads
 * @orchestra/recipes only when a recipe runs.
 */
export async function recipeExtension(): Promise<RunExtension> {
  const recipes = await import('@orchestra/recipes');
  const { simulationBackend } = await import('@orchestra/core');
  return {
    handlerTypes: recipes.RECIPE_HANDLER_TYPES,
    callsModels: true,
    handlers: async (backend) => recipes.createRecipeHandlers({ backend: backend ?? simulationBackend, tools: recipes.BUILT_IN_TOOLS }),
    resumeProblem: async (graph) => {
      try {
        recipes.assertRecipeUnchanged(graph, recipes.BUILT_IN_TOOLS);
        return undefined;
      } catch (error) {
        if (error instanceof recipes.RecipeError) return error.message;
        throw error;
      }
    },
  };
}
