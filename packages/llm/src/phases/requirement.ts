/** A JSON Schema (the parts the requirement texts read). */
export type JsonSchema = { readonly [key: string]: unknown };

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows a local `$ref` (`#/$defs/Beat`, `#/definitions/Beat`) from `root`. */
function deref(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 32; hops++) {
    const ref = current.$ref as string;
    if (!ref.startsWith('#/')) return current;
    let target: unknown = root;
    for (const part of ref.slice(2).split('/')) target = isSchema(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    if (!isSchema(target)) return current;
    current = target;
  }
  return current;
}

/**
 * The schema that describes the value at `path` (zod issue paths: keys and
 * array indexes), or undefined where the schema says nothing. Reads
 * `properties`, `items`, `prefixItems`, `additionalProperties` and local
 * `$ref`s; for `anyOf` / `oneOf` / `allOf`, the first branch that has the step.
 */
export function schemaAt(root: JsonSchema, path: readonly PropertyKey[]): JsonSchema | undefined {
  let current: JsonSchema | undefined = deref(root, root);
  for (const step of path) {
    if (!current) return undefined;
    current = stepInto(current, step, root);
  }
  return current;
}

function stepInto(schema: JsonSchema, step: PropertyKey, root: JsonSchema): JsonSchema | undefined {
  const s = deref(schema, root);
  if (typeof step === 'number') {
    if (Array.isArray(s.prefixItems) && isSchema(s.prefixItems[step])) return deref(s.prefixItems[step] as JsonSchema, root);
    if (isSchema(s.items)) return deref(s.items, root);
  } else if (typeof step === 'string') {
    const properties = s.properties;
    if (isSchema(properties) && isSchema(properties[step])) return deref(properties[step] as JsonSchema, root);
    if (isSchema(s.additionalProperties)) return deref(s.additionalProperties, root);
  }
  for (const combinator of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = s[combinator];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      const found = isSchema(branch) ? stepInto(branch, step, root) : undefined;
      if (found) return found;
    }
  }
  return undefined;
}

const list = (values: readonly unknown[]): string => values.map((v) => (typeof v === 'string' ? `'${v}'` : JSON.stringify(v))).join(', ');

function bounds(low: unknown, high: unknown, unit: string): string {
  const lo = typeof low === 'number' ? low : undefined;
  const hi = typeof high === 'number' ? high : undefined;
  const of = (n: number) => `${n} ${n === 1 ? unit.replace(/s$/, '') : unit}`;
  if (lo !== undefined && hi !== undefined) return lo === hi ? `exactly ${of(lo)}` : `${lo} to ${of(hi)}`;
  if (lo !== undefined) return `at least ${of(lo)}`;
  if (hi !== undefined) return `at most ${of(hi)}`;
  return '';
}

/**
 * What a value must be, in words, from its schema: `non-empty string`,
 * `integer >= 1000`, `one of 'a', 'b'`, `array of strings, 2 to 4 items`,
 * followed by the schema's `description` (where examples belong:
 * `non-empty string; e.g. 'adult', 'young adult'`).
 */
export function requirementOf(schema: JsonSchema | undefined, root?: JsonSchema): string {
  if (!schema) return 'not described by the schema';
  const s = root ? deref(schema, root) : schema;
  const parts: string[] = [];
  if (Array.isArray(s.enum)) parts.push(`one of ${list(s.enum)}`);
  else if (s.const !== undefined) parts.push(`exactly ${list([s.const])}`);
  else {
    const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
    const type = types.filter((t) => t !== 'null').join(' or ') || (isSchema(s.properties) ? 'object' : isSchema(s.items) ? 'array' : '');
    const nullable = types.includes('null') ? ' (or null)' : '';
    if (type === 'string') {
      const nonEmpty = s.minLength === 1 && s.maxLength === undefined;
      parts.push(nonEmpty ? 'non-empty string' : ['string', bounds(s.minLength, s.maxLength, 'characters')].filter(Boolean).join(', '));
      if (typeof s.pattern === 'string') parts.push(`matching /${s.pattern}/`);
      if (typeof s.format === 'string') parts.push(`format ${s.format}`);
    } else if (type === 'integer' || type === 'number') {
      const limits: string[] = [];
      // zod writes the safe-integer range on every int: not a requirement worth stating.
      const stated = (n: unknown): n is number => typeof n === 'number' && Math.abs(n) < Number.MAX_SAFE_INTEGER;
      if (stated(s.minimum)) limits.push(`>= ${s.minimum}`);
      if (typeof s.exclusiveMinimum === 'number') limits.push(`> ${s.exclusiveMinimum}`);
      if (stated(s.maximum)) limits.push(`<= ${s.maximum}`);
      if (typeof s.exclusiveMaximum === 'number') limits.push(`< ${s.exclusiveMaximum}`);
      parts.push([type, limits.join(' and ')].filter(Boolean).join(' '));
    } else if (type === 'array') {
      const items = isSchema(s.items) ? requirementOf(s.items, root).split(';')[0] : '';
      parts.push([items ? `array of ${items}` : 'array', bounds(s.minItems, s.maxItems, 'items')].filter(Boolean).join(', '));
      if (s.uniqueItems === true) parts.push('no duplicates');
    } else if (type === 'object') {
      const required = Array.isArray(s.required) ? (s.required as string[]) : [];
      parts.push(required.length > 0 ? `object with ${required.join(', ')}` : 'object');
    } else if (type) parts.push(type);
    else if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) {
      const branches = ((s.anyOf ?? s.oneOf) as unknown[]).filter(isSchema).map((b) => requirementOf(b, root).split(';')[0]);
      parts.push(branches.join(' or '));
    }
    if (nullable && parts.length > 0) parts[0] += nullable;
  }
  if (typeof s.description === 'string' && s.description.trim()) parts.push(s.description.trim());
  return parts.filter(Boolean).join('; ') || 'any value';
}
