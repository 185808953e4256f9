import { goalExpansionTransform } from './goal-expansion-transform.js';
import { stylesheetTransform } from './stylesheet-transform.js';
import type { Transform } from './transform.js';

/** The built-in transforms, in the order they run: model stylesheet, then `$goal` expansion. */
export const BUILT_IN_TRANSFORMS: readonly Transform[] = [stylesheetTransform, goalExpansionTransform];
