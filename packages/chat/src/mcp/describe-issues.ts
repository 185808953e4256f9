/** The parts of a zod issue {@link describeIssues} reads. */
export interface IssueLike {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: unknown;
  keys?: string[];
  values?: unknown[];
  /** An `invalid_union`'s issues, one list per alternative. */
  errors?: IssueLike[][];
}

/** How a value of the expected kind is named. */
const KINDS: Record<string, string> = {
  record: 'an object',
  object: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
};

/**
 * The problems zod found in a message, for a person: each as
 * `<path> must be an object, not null` (or zod's own words when there is
 * nothing clearer to say), at most three, joined by `; `. `whole` names the
 * input itself (`the message has unknown key "x"`).
 */
export function describeIssues(issues: readonly IssueLike[], input: unknown, whole = 'the message'): string {
  const shown = issues.slice(0, 3).map((issue) => describeIssue(issue, input, whole));
  if (issues.length > shown.length) shown.push(`and ${issues.length - shown.length} more`);
  return shown.join('; ');
}

function describeIssue(issue: IssueLike, input: unknown, whole: string): string {
  const where = issue.path.length === 0 ? whole : issue.path.map(String).join('.');
  const actual = valueAt(input, issue.path);
  if (issue.code === 'invalid_type' && typeof issue.expected === 'string') {
    if (actual.missing) return `${where} is missing`;
    return `${where} must be ${KINDS[issue.expected] ?? issue.expected}, not ${kindOf(actual.value)}`;
  }
  const kinds = issue.code === 'invalid_union' ? unionKinds(issue) : undefined;
  if (kinds) return actual.missing ? `${where} is missing` : `${where} must be ${kinds.join(' or ')}, not ${kindOf(actual.value)}`;
  if (issue.code === 'invalid_value' && issue.values?.length) {
    const allowed = issue.values.map((v) => JSON.stringify(v)).join(' or ');
    return actual.missing ? `${where} is missing (it must be ${allowed})` : `${where} must be ${allowed}, not ${JSON.stringify(actual.value)}`;
  }
  if (issue.code === 'unrecognized_keys' && issue.keys?.length) return `${where} has unknown ${issue.keys.length === 1 ? 'key' : 'keys'} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
  // A rule of the schema's own (a refinement): its message says it all.
  if (issue.code === 'custom') return issue.message;
  return `${where}: ${issue.message}`;
}

/** The kinds a union of plain types accepts (`a string`, `a number`), when each alternative failed on the type alone. */
function unionKinds(issue: IssueLike): string[] | undefined {
  const kinds: string[] = [];
  for (const alternative of issue.errors ?? []) {
    const [only] = alternative;
    if (alternative.length !== 1 || !only || only.code !== 'invalid_type' || only.path.length > 0 || typeof only.expected !== 'string') return undefined;
    kinds.push(KINDS[only.expected] ?? only.expected);
  }
  return kinds.length > 0 ? kinds : undefined;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): { missing: boolean; value?: unknown } {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return { missing: true };
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return { missing: false, value };
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return String(value);
  return typeof value;
}
