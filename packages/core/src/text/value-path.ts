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

/**
 * The values a path into the run's context leads to. The path starts with a
 * context key, matched longest first since keys hold dots
 * (`thread_design.output.threads[].thread_id` reads the key
 * `thread_design.output`, then `threads[].thread_id` inside it); `[]` on the
 * key's last part reads each element of a list-valued key. Undefined when
 * no context key starts the path.
 */
export function resolveContextPath(text: string, context: Readonly<Record<string, unknown>>): Located[] | undefined {
  const parts = text.split('.');
  for (let i = parts.length; i >= 1; i--) {
    const head = parts.slice(0, i);
    if (head.slice(0, -1).some((p) => p.endsWith('[]'))) continue;
    const last = head[i - 1] as string;
    const each = last.endsWith('[]');
    const key = [...head.slice(0, -1), each ? last.slice(0, -2) : last].join('.');
    if (!Object.hasOwn(context, key)) continue;
    const rest = parseValuePath(parts.slice(i).join('.') || '$');
    if (typeof rest === 'string') return undefined;
    const value = context[key];
    const roots: Located[] = each ? (Array.isArray(value) ? value.map((v, j) => ({ at: `${key}[${j}]`, value: v })) : []) : [{ at: key, value }];
    return roots.flatMap((r) => collect(r.value, rest, r.at));
  }
  return undefined;
}
