/**
 * The task router: `recipes/router.yaml`'s ordered rules (keywords and
 * regular expressions, no model) pick the recipe for a task description.
 */
export { compilePattern, keywordRegex, KEYWORD, PATTERN_FLAGS, RouterRuleSchema, RouterSchema, type CompiledPattern, type RouterConfig, type RouterRuleConfig } from './router-schema.js';
export { formatRouterKeyPath, RouterError, type RouterKeyPath } from './router-error.js';
export { compileRouter, type Router, type RouterRule } from './router.js';
export { loadRouter, parseRouterText, type LoadRouterOptions } from './load-router.js';
export { routeTask, type RouteResult } from './route-task.js';
