/** Where two JSON values first differ: the path (`messages[2].content`) and the value on each side (undefined: absent). */
export interface JsonDifference {
  path: string;
  left: unknown;
  right: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
}

/**
 * The first place where two JSON values differ, depth first in the left
 * value's key order (then keys only the right has); undefined when they are
 * equal. Key order does not count; array order does.
 */
export function firstJsonDifference(left: unknown, right: unknown, path = ''): JsonDifference | undefined {
  if (Array.isArray(left) && Array.isArray(right)) {
    const length = Math.max(left.length, right.length);
    for (let i = 0; i < length; i++) {
      if (i >= left.length || i >= right.length) return { path: join(path, i), left: left[i], right: right[i] };
      const d = firstJsonDifference(left[i], right[i], join(path, i));
      if (d) return d;
    }
    return undefined;
  }
  if (isObject(left) && isObject(right)) {
    for (const key of Object.keys(left)) {
      if (!(key in right) && left[key] === undefined) continue;
      const d = firstJsonDifference(left[key], right[key], join(path, key));
      if (d) return d;
    }
    for (const key of Object.keys(right)) if (!(key in left) && right[key] !== undefined) return { path: join(path, key), left: undefined, right: right[key] };
    return undefined;
  }
  return Object.is(left, right) ? undefined : { path: path || '(the whole value)', left, right };
}
