import type { HasAttributes } from './model.js';

/** The value types of the Attractor DOT dialect (spec §2.4). */
export type ValueType = 'string' | 'integer' | 'float' | 'boolean' | 'duration';

const INTEGER = /^-?[0-9]+$/;
const FLOAT = /^-?(?:[0-9]+\.[0-9]*|[0-9]*\.[0-9]+|[0-9]+)$/;
const DURATION = /^([0-9]+)(ms|s|m|h|d)$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses an integer (`42`, `-1`); undefined when the text is not one. */
export function parseInteger(text: string): number | undefined {
  const t = text.trim();
  return INTEGER.test(t) ? Number.parseInt(t, 10) : undefined;
}

/** Parses a float (`0.5`, `-3.14`, `2`); undefined when the text is not one. */
export function parseFloatValue(text: string): number | undefined {
  const t = text.trim();
  return FLOAT.test(t) && t !== '-' ? Number.parseFloat(t) : undefined;
}

/** Parses `true` / `false`; undefined otherwise. */
export function parseBoolean(text: string): boolean | undefined {
  const t = text.trim();
  if (t === 'true') return true;
  if (t === 'false') return false;
  return undefined;
}

/** Parses a duration (`250ms`, `900s`, `15m`, `2h`, `1d`) into milliseconds; undefined otherwise. */
export function parseDuration(text: string): number | undefined {
  const m = DURATION.exec(text.trim());
  if (!m) return undefined;
  return Number.parseInt(m[1] as string, 10) * (UNIT_MS[m[2] as string] as number);
}

/** A value read with its inferred type. */
export type TypedValue =
  | { type: 'string'; value: string }
  | { type: 'integer' | 'float' | 'duration'; value: number }
  | { type: 'boolean'; value: boolean };

/**
 * Infers the type of an attribute value as written: quoted text is a string
 * unless it spells a duration (`timeout="900s"` is common); bare text is an
 * integer, float, boolean or duration when it reads as one.
 */
export function inferValue(text: string, quoted: boolean): TypedValue {
  const duration = parseDuration(text);
  if (duration !== undefined) return { type: 'duration', value: duration };
  if (quoted) return { type: 'string', value: text };
  const integer = parseInteger(text);
  if (integer !== undefined) return { type: 'integer', value: integer };
  const float = parseFloatValue(text);
  if (float !== undefined) return { type: 'float', value: float };
  const bool = parseBoolean(text);
  if (bool !== undefined) return { type: 'boolean', value: bool };
  return { type: 'string', value: text };
}

/** Whether `text` is a valid value of `type`. */
export function isValidValue(text: string, type: ValueType): boolean {
  switch (type) {
    case 'string':
      return true;
    case 'integer':
      return parseInteger(text) !== undefined;
    case 'float':
      return parseFloatValue(text) !== undefined;
    case 'boolean':
      return parseBoolean(text) !== undefined;
    case 'duration':
      return parseDuration(text) !== undefined;
  }
}

/** A string attribute, or `fallback` when absent. */
export function stringAttr(el: HasAttributes, key: string, fallback = ''): string {
  return el.attributes[key] ?? fallback;
}

/** An integer attribute; `fallback` when absent or not an integer. */
export function integerAttr(el: HasAttributes, key: string): number | undefined;
export function integerAttr(el: HasAttributes, key: string, fallback: number): number;
export function integerAttr(el: HasAttributes, key: string, fallback?: number): number | undefined {
  const raw = el.attributes[key];
  return (raw === undefined ? undefined : parseInteger(raw)) ?? fallback;
}

/** A boolean attribute; `fallback` when absent or not `true`/`false`. */
export function booleanAttr(el: HasAttributes, key: string, fallback = false): boolean {
  const raw = el.attributes[key];
  return (raw === undefined ? undefined : parseBoolean(raw)) ?? fallback;
}

/** A duration attribute in milliseconds; undefined when absent or invalid. */
export function durationAttr(el: HasAttributes, key: string): number | undefined {
  const raw = el.attributes[key];
  return raw === undefined ? undefined : parseDuration(raw);
}
