import * as z from 'zod';
import type { ArtifactIssues } from './schema-issues.js';
import { shortened } from './schema-issues.js';
import { collect, parseValuePath, resolveContextPath, type Located, type ValuePath } from '@orchestra/core/handlers';

const Severity = z.enum(['fatal', 'retry']).default('retry');
const Path = z.string().min(1);
/** A path, or a list of paths whose values are taken together (`["retained.characters[]", "retained.locations[]"]`). */
const Paths = z.union([Path, z.array(Path).min(1)]);

const CheckSchema = z.union([
  z.strictObject({ references: Paths, among: Paths, severity: Severity }),
  z.strictObject({ covers: Paths, with: Paths, severity: Severity }),
  z.strictObject({ unique: Paths, severity: Severity }),
  z.strictObject({ disjoint: Paths, from: Paths, severity: Severity }),
  z.strictObject({
    count: Path,
    per: Path,
    over: Paths.optional(),
    distinct: Path.optional(),
    min: z.int().min(0).optional(),
    max: z.int().min(0).optional(),
    severity: Severity,
  }),
]);

/** The declaration file of semantic checks (`output.checks`): `{ "checks": [ ... ] }`. */
export const SemanticChecksSchema = z.strictObject({ checks: z.array(CheckSchema) });

/** One declared check, as written. */
export type SemanticCheck = z.infer<typeof CheckSchema>;

/**
 * Reads a checks declaration; returns the checks, or an error message naming
 * the check and field at fault. Paths are parsed here, so a malformed one is
 * refused before any model call.
 */
export function parseSemanticChecks(json: unknown, source: string): SemanticCheck[] | string {
  const parsed = SemanticChecksSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    const hint = issue?.code === 'invalid_union' ? ': each check is one of {references, among}, {covers, with}, {unique}, {disjoint, from}, {count, per[, over, distinct, min, max]}, with an optional severity ("fatal" or "retry")' : `: ${issue?.message}`;
    return `${source}: not a valid checks declaration${where}${hint}`;
  }
  for (const [i, check] of parsed.data.checks.entries()) {
    for (const [key, value] of Object.entries(check)) {
      if (key === 'severity' || typeof value === 'number') continue;
      const paths = typeof value === 'string' ? [value] : (value as string[]);
      for (const [j, text] of paths.entries()) {
        const path = parseValuePath(text);
        if (typeof path === 'string') return `${source}: checks[${i}].${key}${typeof value === 'string' ? '' : `[${j}]`}: ${path}`;
      }
    }
    if ('count' in check && check.min === undefined && check.max === undefined) return `${source}: checks[${i}] counts without a min or a max`;
  }
  return parsed.data.checks;
}

/** What the checks found: issues to send back for a retry, issues that stop the node at once, and checks that could not run. */
export interface CheckResult {
  retry: ArtifactIssues;
  fatal: ArtifactIssues;
  /** A source naming nothing in the context: a mistake in the pipeline, not the model's. */
  errors: string[];
}

/** How many valid values a requirement lists before it says how many more there are. */
export const MAX_LISTED_VALUES = 100;

function listValues(values: Iterable<unknown>): string {
  const all = [...values];
  if (all.length === 0) return 'nothing: the source has no values';
  const shown = all.slice(0, MAX_LISTED_VALUES).map((v) => (typeof v === 'string' ? `'${v}'` : JSON.stringify(v)));
  return `${shown.join(', ')}${all.length > MAX_LISTED_VALUES ? ` … (and ${all.length - MAX_LISTED_VALUES} more)` : ''}`;
}

const show = (v: unknown): string => (typeof v === 'string' ? `'${v}'` : JSON.stringify(v));

/** A set key for a JSON value: strings and numbers as themselves, anything else by its JSON. */
function keyOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : value;
}

/** What joins the paths of a list in the texts of findings (`field`, `problem`, `requirement`). */
export const PATHS_SEPARATOR = ' | ';

/** A check's path field as its findings name it: the path, or a list's paths joined by {@link PATHS_SEPARATOR}. */
function pathsText(paths: string | readonly string[]): string {
  return typeof paths === 'string' ? paths : paths.join(PATHS_SEPARATOR);
}

const listOf = (paths: string | readonly string[]): readonly string[] => (typeof paths === 'string' ? [paths] : paths);

/** The values a source path leads to: `$.x` reads the artifact, anything else the context (see `resolveContextPath`). */
function sourceValues(text: string, artifact: unknown, context: Readonly<Record<string, unknown>>): Located[] | undefined {
  if (text === '$' || text.startsWith('$.')) return collect(artifact, parseValuePath(text) as ValuePath);
  return resolveContextPath(text, context);
}

const empty = (): ArtifactIssues => ({ invalid: [], missing: [], unknown: [] });

/**
 * Runs declared checks on an artifact against the run's context. Each
 * check indexes its sets once (a `Set` or a `Map`), so the cost is linear
 * in the values it reads.
 */
export function runSemanticChecks(checks: readonly SemanticCheck[], artifact: unknown, context: Readonly<Record<string, unknown>>): CheckResult {
  const result: CheckResult = { retry: empty(), fatal: empty(), errors: [] };
  const own = (paths: string | readonly string[]) => listOf(paths).flatMap((text) => collect(artifact, parseValuePath(text) as ValuePath));
  const source = (paths: string | readonly string[], i: number, field: string): Located[] | undefined => {
    const all: Located[] = [];
    let ok = true;
    for (const [j, text] of listOf(paths).entries()) {
      const found = sourceValues(text, artifact, context);
      if (found) all.push(...found);
      else {
        ok = false;
        result.errors.push(`checks[${i}].${field}${typeof paths === 'string' ? '' : `[${j}]`}: ${JSON.stringify(text)} names no value of the run's context (no context key is a prefix of it)`);
      }
    }
    return ok ? all : undefined;
  };
  checks.forEach((check, i) => {
    const into = check.severity === 'fatal' ? result.fatal : result.retry;
    if ('references' in check) {
      const valid = source(check.among, i, 'among');
      if (!valid) return;
      const allowed = new Set(valid.map((v) => keyOf(v.value)));
      for (const { at, value } of own(check.references)) {
        if (allowed.has(keyOf(value))) continue;
        into.invalid.push({ field: at, provided: shortened(value), problem: `${show(value)} is not among ${pathsText(check.among)}`, requirement: `one of ${listValues(new Set(valid.map((v) => v.value)))}` });
      }
    } else if ('covers' in check) {
      const wanted = source(check.covers, i, 'covers');
      if (!wanted) return;
      const present = new Set(own(check.with).map((v) => keyOf(v.value)));
      const seen = new Set<unknown>();
      for (const { value } of wanted) {
        const key = keyOf(value);
        if (present.has(key) || seen.has(key)) continue;
        seen.add(key);
        into.missing.push({ field: pathsText(check.with), requirement: `an entry for ${show(value)} (every value of ${pathsText(check.covers)} needs one)` });
      }
    } else if ('unique' in check) {
      const first = new Map<unknown, string>();
      for (const { at, value } of own(check.unique)) {
        const key = keyOf(value);
        const earlier = first.get(key);
        if (earlier === undefined) first.set(key, at);
        else into.invalid.push({ field: at, provided: shortened(value), problem: `duplicate of ${earlier}`, requirement: `unique values across ${pathsText(check.unique)}` });
      }
    } else if ('disjoint' in check) {
      const other = source(check.from, i, 'from');
      if (!other) return;
      const taken = new Map<unknown, string>();
      for (const v of other) if (!taken.has(keyOf(v.value))) taken.set(keyOf(v.value), v.at); // the first place a value is used
      for (const { at, value } of own(check.disjoint)) {
        const clash = taken.get(keyOf(value));
        if (clash !== undefined) into.invalid.push({ field: at, provided: shortened(value), problem: `${show(value)} is also used at ${clash}`, requirement: `a value not used in ${pathsText(check.from)}` });
      }
    } else {
      countCheck(check, i, artifact, into, source);
    }
  });
  return result;
}

type CountCheck = Extract<SemanticCheck, { count: string }>;

function countCheck(check: CountCheck, i: number, artifact: unknown, into: ArtifactIssues, source: (paths: string | readonly string[], i: number, field: string) => Located[] | undefined): void {
  const per = parseValuePath(check.per) as ValuePath;
  const distinct = check.distinct ? (parseValuePath(check.distinct) as ValuePath) : undefined;
  // group key → the items' distinct values (or item count), in first-seen order of groups
  const groups = new Map<unknown, { label: unknown; items: number; values: Set<unknown> }>();
  if (check.over) {
    const over = source(check.over, i, 'over');
    if (!over) return;
    for (const { value } of over) if (!groups.has(keyOf(value))) groups.set(keyOf(value), { label: value, items: 0, values: new Set() });
  }
  for (const item of collect(artifact, parseValuePath(check.count) as ValuePath)) {
    const keys = new Set<unknown>();
    for (const { value } of collect(item.value, per)) {
      const key = keyOf(value);
      if (keys.has(key)) continue; // an item naming a group twice counts once
      keys.add(key);
      let group = groups.get(key);
      if (!group) {
        if (check.over) continue; // not one of the groups counted (a references check reports it)
        group = { label: value, items: 0, values: new Set() };
        groups.set(key, group);
      }
      group.items++;
      if (distinct) for (const d of collect(item.value, distinct)) group.values.add(keyOf(d.value));
    }
  }
  const what = (n: number) => (distinct ? `distinct ${check.distinct} value${n === 1 ? '' : 's'}` : `item${n === 1 ? '' : 's'}`);
  const range = check.min !== undefined && check.max !== undefined ? `${check.min} to ${check.max}` : check.min !== undefined ? `at least ${check.min}` : `at most ${check.max}`;
  for (const { label, items, values } of groups.values()) {
    const n = distinct ? values.size : items;
    if ((check.min !== undefined && n < check.min) || (check.max !== undefined && n > check.max)) {
      const bound = check.max ?? check.min ?? 0;
      into.invalid.push({ field: check.count, provided: n, problem: `${check.per} ${show(label)} has ${n} ${what(n)}`, requirement: `${range} ${what(bound === 1 && check.min === check.max ? 1 : bound)} per ${check.per}` });
    }
  }
}
