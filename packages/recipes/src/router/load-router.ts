import { readFileSync } from 'node:fs';
import { closest } from '@orchestra/core/loader';
import { LineCounter, isMap, parseDocument } from 'yaml';
import { z } from 'zod';
import { compileRouter, type Router } from './router.js';
import { RouterError, type RouterKeyPath } from './router-error.js';
import { yamlPosition, type PositionTarget } from '../yaml-positions.js';
import { RouterRuleSchema, RouterSchema } from './router-schema.js';

/** Options of {@link parseRouterText} and {@link loadRouter}. */
export interface LoadRouterOptions {
  /** The recipe ids that exist: a rule naming another is an error at its `recipe:` line. Unchecked when absent. */
  recipes?: readonly string[];
}

interface Problem {
  path: RouterKeyPath;
  reason: string;
  target: PositionTarget;
}

/** The candidate closest to `word` (case ignored) when at most a third of it (and at least 2 edits) away. */
function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(2, Math.floor(word.length / 3));
  const lower = new Map(candidates.map((c) => [c.toLowerCase(), c]));
  const hit = closest(word.toLowerCase(), lower.keys(), limit);
  return hit === undefined ? undefined : lower.get(hit);
}

function show(value: unknown): string {
  if (value === null || value === undefined) return 'an empty value';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (Array.isArray(value)) return value.length ? 'a list' : 'an empty list';
  if (typeof value === 'object') return 'a mapping';
  return String(value);
}

function lookup(data: unknown, path: RouterKeyPath): { present: boolean; value: unknown } {
  let value = data;
  for (const segment of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return { present: false, value: undefined };
    value = (value as Record<string | number, unknown>)[segment];
  }
  return { present: true, value };
}

const KNOWN_KEYS: Record<string, string[]> = {
  top: Object.keys(RouterSchema.shape),
  rule: Object.keys(RouterRuleSchema.shape),
};

/** A zod issue in plain words: an unknown key (with a suggestion), a missing key, `expected …, got …`. */
function describe(issue: z.core.$ZodIssue, data: unknown): Problem[] {
  const path = issue.path.filter((s): s is string | number => typeof s !== 'symbol');
  if (issue.code === 'unrecognized_keys') {
    const known = (path.length === 0 ? KNOWN_KEYS.top : KNOWN_KEYS.rule) ?? [];
    return issue.keys.map((key) => {
      const hint = didYouMean(key, known);
      return { path: [...path, key], reason: hint ? `unknown key (did you mean ${hint}?)` : `unknown key (known keys: ${known.join(', ')})`, target: 'key' };
    });
  }
  if (issue.code === 'invalid_key') return [{ path, reason: issue.issues[0]?.message ?? 'invalid key', target: 'key' }];
  const { present, value } = lookup(data, path);
  let reason = issue.message;
  if (!present) reason = `missing (${reason})`;
  else if (reason.startsWith('expected ') && !reason.includes(', got ')) reason = `${reason}, got ${show(value)}`;
  return [{ path, reason, target: 'value' }];
}

/** Whether a problem is about a whole mapping or list (a rule with no condition), not a key or a scalar in it. */
function wholeValue(data: unknown, problem: Problem): boolean {
  const { value } = lookup(data, problem.path);
  return problem.target === 'value' && typeof value === 'object' && value !== null;
}

/**
 * Parses and validates the text of a `recipes/router.yaml` and compiles its
 * rules. Throws {@link RouterError} (`ORCH_ROUTER`) for the first problem in
 * file order, as one line `file:line:col: key.path: message`: YAML syntax, an
 * unknown key, a wrong value, a regular expression that does not compile, a
 * recipe not in `options.recipes`.
 */
export function parseRouterText(text: string, file: string, options: LoadRouterOptions = {}): Router {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const here = (path: RouterKeyPath, target?: PositionTarget) => ({ file, ...yamlPosition(doc, lineCounter, path, target) });
  const syntax = doc.errors[0];
  if (syntax) {
    const { line, col } = lineCounter.linePos(syntax.pos[0]);
    const reason = syntax.code === 'DUPLICATE_KEY' ? 'duplicate key (a key may appear only once in a mapping)' : syntax.code === 'MULTIPLE_DOCS' ? 'expected one YAML document, found several (remove the extra ---)' : syntax.message.split('\n')[0];
    throw new RouterError({ file, line, column: col }, [], `YAML syntax error: ${reason}`, { cause: syntax });
  }
  if (!isMap(doc.contents)) throw new RouterError(here([]), [], `expected a router: a mapping with rules:, got ${doc.contents === null ? 'an empty file' : 'something else'}`);
  let data: unknown;
  try {
    data = doc.toJS();
  } catch (error) {
    throw new RouterError(here([]), [], `YAML error: ${(error as Error).message}`, { cause: error });
  }
  const parsed = RouterSchema.safeParse(data);
  if (!parsed.success) {
    const first = parsed.error.issues
      .flatMap((issue) => describe(issue, data))
      .map((problem) => ({ problem, at: here(problem.path, problem.target), whole: wholeValue(data, problem) }))
      // A problem inside a rule (an unknown key, a bad pattern) comes before one about the rule as a whole.
      // At one place, an unknown key before what is missing (`rule:` written for `rules:`).
      .sort((a, b) => Number(a.whole) - Number(b.whole) || a.at.line - b.at.line || a.at.column - b.at.column || Number(b.problem.target === 'key') - Number(a.problem.target === 'key'))[0];
    if (first) throw new RouterError(first.at, first.problem.path, first.problem.reason);
  }
  const config = parsed.data as NonNullable<typeof parsed.data>;
  if (options.recipes) {
    const known = options.recipes;
    config.rules.forEach((rule, i) => {
      if (known.includes(rule.recipe)) return;
      const hint = didYouMean(rule.recipe, known);
      const list = known.length ? `the recipes are ${known.join(', ')}` : 'there are no recipes';
      throw new RouterError(here(['rules', i, 'recipe']), ['rules', i, 'recipe'], `${JSON.stringify(rule.recipe)} is not a recipe (${list})${hint ? `: did you mean ${JSON.stringify(hint)}?` : ''}`);
    });
  }
  return compileRouter(config, file);
}

/** Reads a `recipes/router.yaml`; see {@link parseRouterText}. A file that cannot be read is a {@link RouterError} at 1:1. */
export function loadRouter(file: string, options: LoadRouterOptions = {}): Router {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory, not a file' : (error as Error).message;
    throw new RouterError({ file, line: 1, column: 1 }, [], `cannot read the router file: ${reason}`, { cause: error });
  }
  return parseRouterText(text, file, options);
}

