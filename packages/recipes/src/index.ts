/**
 * @orchestra/recipes — Control Room's pipeline mode: recipes as data (a
 * model-free tool phase, tool-less agents in sequence, a Definition of
 * Done) compiled to ordinary DOT pipelines the engine runs, the phase-A
 * tools, and a deterministic task router. docs/recipes.md is the guide.
 * @packageDocumentation
 */
export { RECIPES_ERROR_CODES, RecipeError, type RecipesErrorCode } from './recipe-error.js';
export { AgentStepSchema, CommandToolSchema, DodCheckSchema, RecipeSchema, ToolStepSchema, type AgentStep, type CommandToolConfig, type Recipe, type ToolStep } from './recipe-schema.js';
export { RECIPES_DIR, TEMPLATES_DIR, listRecipes, loadRecipe, openProject, readRecipeFile, recipeFile, type LoadedRecipe, type RecipeProject } from './recipe-project.js';
export { checkRecipe, type ToolCatalogue } from './check-recipe.js';
export { RECIPE_NODE_TYPES, compileRecipe, type CompiledRecipe } from './compile-recipe.js';
export { assertRecipeUnchanged, compiledRecipeFile, isRecipePipeline, prepareRecipe, recipeChange, type PreparedRecipe } from './prepare-recipe.js';
export { RECIPE_HANDLER_TYPES, createRecipeHandlers } from './handlers/recipe-handlers.js';
export { FINDINGS_FILE } from './handlers/dod-handler.js';
export { evaluateCheck, type DodCheck, type DodResult } from './dod.js';
export { slotKey, readSlot, type SlotValue } from './slots.js';
export { RecipeToolError, type RecipeTool, type RecipeToolContext, type RecipeToolResult } from './tool-types.js';
export { commandTool } from './command-tool.js';
export { loadRouter, routeTask, RouterError, type Router, type RouteResult } from './router/index.js';
export { BUILT_IN_TOOLS, builtInTool } from './tools/built-in-tools.js';
export * from './plans/index.js';
