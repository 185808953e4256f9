import type { JsonValue } from '@orchestra/core';
import { RecipeToolError } from '../tool-types.js';

/** The most paths a list argument may hold. */
export const MAX_PATH_ARGS = 200;

type Args = Readonly<Record<string, JsonValue>>;

/** A required string argument (non-empty unless `allowEmpty`). */
export function stringArg(tool: string, args: Args, name: string, allowEmpty = false): string {
  const value = args[name];
  if (value === undefined || value === null) throw new RecipeToolError(`${tool}: the argument ${name} is missing`);
  if (typeof value !== 'string') throw new RecipeToolError(`${tool}: the argument ${name} must be a string, not ${JSON.stringify(value).slice(0, 80)}`);
  if (!allowEmpty && value.trim() === '') throw new RecipeToolError(`${tool}: the argument ${name} is empty`);
  return value;
}

/** An optional string argument (`null` counts as absent). */
export function optionalStringArg(tool: string, args: Args, name: string): string | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new RecipeToolError(`${tool}: the argument ${name} must be a string, not ${JSON.stringify(value).slice(0, 80)}`);
  return value;
}

/** A required list of paths: a non-empty list of strings, or one string; at most {@link MAX_PATH_ARGS}, duplicates dropped. */
export function pathListArg(tool: string, args: Args, name: string): string[] {
  const value = args[name];
  if (value === undefined || value === null) throw new RecipeToolError(`${tool}: the argument ${name} is missing`);
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.every((item): item is string => typeof item === 'string' && item.trim() !== '')) {
    throw new RecipeToolError(`${tool}: the argument ${name} must be a list of paths, not ${JSON.stringify(value).slice(0, 80)}`);
  }
  if (list.length === 0) throw new RecipeToolError(`${tool}: the argument ${name} is an empty list`);
  if (list.length > MAX_PATH_ARGS) throw new RecipeToolError(`${tool}: the argument ${name} lists ${list.length} paths (at most ${MAX_PATH_ARGS})`);
  return [...new Set(list)];
}

/** An optional whole number argument within [min, max]. */
export function optionalIntArg(tool: string, args: Args, name: string, min: number, max: number): number | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
    throw new RecipeToolError(`${tool}: the argument ${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value).slice(0, 80)}`);
  }
  return n;
}
