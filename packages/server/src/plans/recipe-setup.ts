import { RunRefusal, type BackendFactory, type BackendRequest, type CodergenBackend, type RunSetupHook, type RunSetupRequest } from '@orchestra/core';
import { assertRecipeUnchanged, createRecipeHandlers, isRecipePipeline, type RecipeTool } from '@orchestra/recipes';

/** What {@link recipeSetup} equips recipe runs with. */
export interface RecipeSetupOptions {
  tools: readonly RecipeTool[];
  /** The model of recipe runs that are not simulated (the server's). */
  backendFor?: BackendFactory;
}

async function modelFor(request: RunSetupRequest, backendFor: BackendFactory | undefined): Promise<CodergenBackend> {
  const recorded = request.options;
  const asked: BackendRequest = {
    ...(recorded.model ? { model: recorded.model } : {}),
    ...(recorded.base_url ? { baseUrl: recorded.base_url } : {}),
    ...(recorded.backend ? { backend: recorded.backend } : {}),
  };
  const backend = backendFor ? await backendFor(request.graph, asked) : undefined;
  if (!backend) throw new RunRefusal('ORCH_NO_BACKEND', `${request.graph.name} has agent steps and this server has no model configured (orchestra.yaml of the project, or --model); a plan proposed with "simulate": true runs without one`);
  return backend;
}

/**
 * The server's run setup with compiled recipes (a project's plan tasks):
 * `base` checks the run as for any pipeline (tools need `--allow-tools`,
 * simulated runs get the simulation), then a recipe run gets its node
 * types' handlers over its backend (the server's model when not
 * simulated); a resumed one is refused when its recipe changed since.
 */
export function recipeSetup(base: RunSetupHook, options: RecipeSetupOptions): RunSetupHook {
  return async (request) => {
    const setup = await base(request);
    if (!isRecipePipeline(request.graph)) return setup;
    if (request.how === 'resume') assertRecipeUnchanged(request.graph, options.tools);
    const backend = setup.backend ?? (await modelFor(request, options.backendFor));
    return { ...setup, backend, handlers: { ...setup.handlers, ...createRecipeHandlers({ backend, tools: options.tools }) } };
  };
}
