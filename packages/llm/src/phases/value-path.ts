/** One step of a {@link ValuePath}: a field, then (with `[]`) each element of the array there. */
export interface PathSegment {
  readonly key: string;
  readonly each: boolean;
}

/**
 * A path to values inside a JSON value, as the semantic checks write it:
 * fields joined by `.`, `[]` after a field for "each element of this array"
 * (`initial_beats[].threads[]`: every thread id of every beat). `$` alone,
 * or a leading `$.`, is the value itself.
 */
export type ValuePath = readonly PathSegment[];

const SEGMENT = /^([^.[\]]+)(\[\])?$/;

/** Parses a path; returns an error message for a malformed one. */
export function parseValuePath(text: string): ValuePath | string {
  const body = text === '$' ? '' : text.startsWith('$.') ? text.slice(2) : text;
  if (body === '') return [];
  const segments: PathSegment[] = [];
  for (const part of body.split('.')) {
    const match = SEGMENT.exec(part);
    if (!match) return `path ${JSON.stringify(text)} has a malformed step ${JSON.stringify(part)}: write field names joined by ".", each optionally followed by "[]"`;
    segments.push({ key: match[1] as string, each: match[2] !== undefined });
  }
  return segments;
}

/** A value found at a path, with where it is (`initial_beats[3].threads[0]`). */
export interface Located {
  readonly at: string;
  readonly value: unknown;
}

/**
 * Every value `path` leads to in `root`, in document order. A field that is
 * absent, or a `[]` step on something that is not an array, leads nowhere
 * (schema validation reports those). `prefix` starts the `at` texts.
 */
export function collect(root: unknown, path: ValuePath, prefix = ''): Located[] {
  let current: Located[] = [{ at: prefix, value: root }];
  for (const { key, each } of path) {
    const next: Located[] = [];
    for (const { at, value } of current) {
      if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, key)) continue;
      const field = (value as Record<string, unknown>)[key];
      const here = at === '' ? key : `${at}.${key}`;
      if (!each) next.push({ at: here, value: field });
      else if (Array.isArray(field)) field.forEach((element, i) => next.push({ at: `${here}[${i}]`, value: element }));
    }
    current = next;
  }
  return current;
}

/** The text of a path, as written (`$` for the root). */
export function formatValuePath(path: ValuePath): string {
  return path.length === 0 ? '$' : path.map((s) => `${s.key}${s.each ? '[]' : ''}`).join('.');
}
