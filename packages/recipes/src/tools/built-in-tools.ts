import type { RecipeTool } from '../tool-types.js';
import { canonChecker } from './canon-checker.js';
import { consistencyChecker } from './consistency-checker.js';
import { fileLocator } from './file-locator.js';
import { outlineAnalyzer } from './outline-analyzer.js';
import { proseAnalyzer } from './prose-analyzer.js';
import { sceneDraftValidator } from './scene-draft-validator.js';
import { stakesMapper } from './stakes-mapper.js';

/**
 * The built-in phase-A tools, deterministic and model-free, for Markdown
 * fiction projects (scenes, an outline, canon files): every path they read
 * or give is relative to the workspace and confined to it.
 */
export const BUILT_IN_TOOLS: readonly RecipeTool[] = Object.freeze([fileLocator, outlineAnalyzer, canonChecker, consistencyChecker, proseAnalyzer, stakesMapper, sceneDraftValidator]);

/** The built-in tool of that name, or undefined. */
export function builtInTool(name: string): RecipeTool | undefined {
  return BUILT_IN_TOOLS.find((tool) => tool.name === name);
}
