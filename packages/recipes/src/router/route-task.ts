import type { Router, RouterRule } from './router.js';

/** Where a task goes: `task_router`'s answer. */
export interface RouteResult {
  /** The recipe of the first rule that matched; `null` when none did. */
  recipe_id: string | null;
  /** Seed values for the recipe: the rule's `args`, then named groups of its `capture` expressions and its `pattern`. */
  initial_args: Record<string, string>;
  /** Whether a rule matched. When false, the task goes back to the chief for scoping. */
  routable: boolean;
  /** 0-based index of the rule that matched (`rules[n]` in the file). */
  rule?: number;
}

function fill(args: Record<string, string>, match: RegExpExecArray | null): void {
  for (const [name, value] of Object.entries(match?.groups ?? {})) if (value !== undefined) args[name] = value;
}

function matches(rule: RouterRule, task: string): RegExpExecArray | null | false {
  if (rule.exclude?.some((k) => k.test(task))) return false;
  if (rule.keywords && !rule.keywords.some((k) => k.test(task))) return false;
  if (rule.all && !rule.all.every((k) => k.test(task))) return false;
  if (!rule.pattern) return null;
  return rule.pattern.exec(task) ?? false;
}

/**
 * Routes a task description to a recipe, deterministically (no model): the
 * first rule whose conditions all hold wins. The task is trimmed first; an
 * empty task is not routable.
 *
 * @example
 * ```ts
 * routeTask('Write Scene 21', router);
 * // { recipe_id: 'creative_draft_scene', initial_args: { scene_number: '21' }, routable: true, rule: 0 }
 * ```
 */
export function routeTask(task: string, router: Router): RouteResult {
  const text = task.trim();
  if (text) {
    for (const [index, rule] of router.rules.entries()) {
      const match = matches(rule, text);
      if (match === false) continue;
      const initial_args: Record<string, string> = { ...rule.args };
      for (const capture of rule.capture) fill(initial_args, capture.exec(text));
      fill(initial_args, match);
      return { recipe_id: rule.recipe, initial_args, routable: true, rule: index };
    }
  }
  return { recipe_id: null, initial_args: {}, routable: false };
}
