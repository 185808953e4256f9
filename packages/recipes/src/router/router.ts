import { compilePattern, keywordRegex, type RouterConfig } from './router-schema.js';

/** One compiled rule of a {@link Router}. */
export interface RouterRule {
  /** The recipe a matching task goes to. */
  recipe: string;
  /** Any one must match (absent: no such condition). */
  keywords?: readonly RegExp[];
  /** Every one must match. */
  all?: readonly RegExp[];
  /** None may match. */
  exclude?: readonly RegExp[];
  /** Must match; its named groups fill `initial_args`. */
  pattern?: RegExp;
  /** Fill `initial_args` with their named groups when they match; never decide the match. */
  capture: readonly RegExp[];
  /** Fixed `initial_args`. */
  args: Readonly<Record<string, string>>;
}

/** A task router: ordered rules, the first that matches wins. Made by `loadRouter`, `parseRouterText` or {@link compileRouter}. */
export interface Router {
  /** The file the rules came from, when they came from one. */
  file?: string;
  rules: readonly RouterRule[];
}

function compiled(source: string, flags: string | undefined): RegExp {
  const result = compilePattern(source, flags);
  // The schema compiled every expression already: a failure here is a config that skipped it.
  if (!result.ok) throw new TypeError(`router rule: ${result.reason}`);
  return result.regex;
}

/** Compiles validated router settings (`RouterSchema` output) into a {@link Router}. */
export function compileRouter(config: RouterConfig, file?: string): Router {
  const rules = config.rules.map((rule): RouterRule => ({
    recipe: rule.recipe,
    ...(rule.keywords ? { keywords: rule.keywords.map(keywordRegex) } : {}),
    ...(rule.all ? { all: rule.all.map(keywordRegex) } : {}),
    ...(rule.exclude ? { exclude: rule.exclude.map(keywordRegex) } : {}),
    ...(rule.pattern !== undefined ? { pattern: compiled(rule.pattern, rule.flags) } : {}),
    capture: (rule.capture ?? []).map((source) => compiled(source, rule.flags)),
    args: { ...rule.args },
  }));
  return file === undefined ? { rules } : { file, rules };
}
