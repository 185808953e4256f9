import { z } from 'zod';
import { RECIPE_NAME, SLOT_NAME } from '../recipe-schema.js';

/**
 * A keyword: a word or a phrase of words (letters, digits, `'`, `-`, single
 * spaces), optionally ending in `*` (the last word may go on: `contradict*`
 * matches "contradicts" and "contradiction"). Matched case-insensitively, as
 * whole words; a space in a phrase matches any run of white space.
 */
export const KEYWORD = /^[\p{L}\p{N}](?:[\p{L}\p{N}'’-]| (?=[\p{L}\p{N}]))*\*?$/u;

/** Flags a pattern may carry: `i`, `m`, `s`, `u` (`g` and `y` would make a pattern stateful). */
export const PATTERN_FLAGS = /^[imsu]*$/;

/** A leading inline flag group, `(?i)` or `(?is)`, which JavaScript does not know: it is read as `flags`. */
const INLINE_FLAGS = /^\(\?([imsu]+)\)/;

/** Word characters for whole-word matching: letters, digits and `_` of any script. */
const WORD = String.raw`[\p{L}\p{N}_]`;

/** A compiled regular expression, or why it does not compile. */
export type CompiledPattern = { ok: true; regex: RegExp; groups: string[] } | { ok: false; reason: string };

/**
 * Compiles a rule's regular expression (JavaScript syntax) with the rule's
 * `flags`; a leading `(?i)`-style group adds its flags. Reports the named
 * groups it has (each fills `initial_args`).
 */
export function compilePattern(source: string, flags = ''): CompiledPattern {
  let body = source;
  let all = flags;
  const inline = INLINE_FLAGS.exec(body);
  if (inline) {
    body = body.slice(inline[0].length);
    all += inline[1];
  }
  const unique = [...new Set(all)].join('');
  let regex: RegExp;
  try {
    regex = new RegExp(body, unique);
  } catch (error) {
    const message = (error as Error).message;
    const colon = message.lastIndexOf(': ');
    return { ok: false, reason: `invalid regular expression: ${colon < 0 ? message : message.slice(colon + 2)}` };
  }
  // An empty alternative matches "", so every named group shows up in `groups` (undefined).
  const groups = Object.keys(new RegExp(`(?:${body})|`, unique).exec('')?.groups ?? {});
  return { ok: true, regex, groups };
}

/** The regular expression of one keyword (see {@link KEYWORD}). */
export function keywordRegex(keyword: string): RegExp {
  const prefix = keyword.endsWith('*');
  const words = (prefix ? keyword.slice(0, -1) : keyword).split(' ').map((w) => w.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'));
  return new RegExp(`(?<!${WORD})${words.join(String.raw`\s+`)}${prefix ? `${WORD}*` : `(?!${WORD})`}`, 'iu');
}

const keywordList = (what: string) =>
  z
    .array(
      z.string({ error: 'expected a keyword (a word or phrase)' }).regex(KEYWORD, { error: 'expected a keyword: words of letters, digits, \' and -, single spaces between them, optionally ending in *' }),
      { error: `expected a list of keywords (${what})` },
    )
    .min(1, { error: `expected at least one keyword (${what})` });

const regexSource = z.string({ error: 'expected a regular expression (a string)' }).min(1, { error: 'expected a regular expression, got an empty string' });

/** One rule: what a task must (and must not) contain, the recipe it then goes to, and the arguments it seeds. */
export const RouterRuleSchema = z
  .strictObject(
    {
      recipe: z.string({ error: 'expected a recipe id' }).regex(RECIPE_NAME, { error: 'expected a recipe id (letters, digits, _ and -, starting with a letter)' }),
      keywords: keywordList('any one of them must appear').optional(),
      all: keywordList('every one of them must appear').optional(),
      exclude: keywordList('none of them may appear').optional(),
      pattern: regexSource.optional(),
      flags: z.string({ error: 'expected regular-expression flags, like i' }).regex(PATTERN_FLAGS, { error: 'expected flags among i, m, s and u' }).optional(),
      capture: z.array(regexSource, { error: 'expected a list of regular expressions' }).min(1, { error: 'expected at least one regular expression' }).optional(),
      args: z
        .record(
          z.string().regex(SLOT_NAME, { error: 'argument names use letters, digits and _, not starting with a digit' }),
          z.union([z.string(), z.number(), z.boolean()], { error: 'expected a value (a string, number or boolean)' }).transform(String),
          { error: 'expected a mapping of argument names to values' },
        )
        .optional(),
    },
    { error: 'expected a rule like { recipe: analytical_consistency, keywords: [consistency, continuity] }' },
  )
  .superRefine((rule, ctx) => {
    if (!rule.keywords && !rule.all && rule.pattern === undefined) {
      ctx.addIssue({ code: 'custom', message: 'a rule needs keywords:, all: or pattern: (what a task must contain to match it)' });
      return;
    }
    // Flags the schema refused already have their problem; the expressions are judged with valid flags only.
    if (rule.flags !== undefined && !PATTERN_FLAGS.test(rule.flags)) return;
    const check = (source: string, path: (string | number)[]) => {
      const compiled = compilePattern(source, rule.flags);
      if (!compiled.ok) {
        ctx.addIssue({ code: 'custom', path, message: compiled.reason });
        return;
      }
      const bad = compiled.groups.find((g) => !SLOT_NAME.test(g));
      if (bad !== undefined) ctx.addIssue({ code: 'custom', path, message: `named group ${JSON.stringify(bad)} is not an argument name (letters, digits and _, not starting with a digit)` });
    };
    if (rule.pattern !== undefined) check(rule.pattern, ['pattern']);
    rule.capture?.forEach((source, i) => check(source, ['capture', i]));
  });

/**
 * `recipes/router.yaml`: ordered rules, the first that matches a task wins.
 *
 * A rule matches when every condition it gives holds: `keywords` (any one of
 * them), `all` (every one), `exclude` (none), `pattern` (a JavaScript regular
 * expression, with `flags`; a leading `(?i)` counts as a flag). `initial_args`
 * are the rule's fixed `args`, then the named groups of each `capture`
 * expression that matches (captures never decide the match), then the named
 * groups of `pattern`; a later value replaces an earlier one.
 */
export const RouterSchema = z.strictObject(
  {
    rules: z.array(RouterRuleSchema, { error: 'expected a list of rules' }).min(1, { error: 'a router needs at least one rule' }),
  },
  { error: 'expected a router: a mapping with rules:' },
);

/** `recipes/router.yaml` after validation. */
export type RouterConfig = z.output<typeof RouterSchema>;
/** One rule of `recipes/router.yaml` after validation. */
export type RouterRuleConfig = z.output<typeof RouterRuleSchema>;
