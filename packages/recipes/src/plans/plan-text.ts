import type { Plan } from './plan-schema.js';

/** The plan as the person reads it: one line per task with its state, route and dependencies. */
export function planText(plan: Plan): string {
  const lines = [`Plan: ${plan.intent}`];
  for (const [i, t] of plan.tasks.entries()) {
    if (t.state === 'removed') continue;
    const route = t.recipe_id ? `→ ${t.recipe_id}` : '→ (no recipe)';
    const deps = t.deps.length ? ` after ${t.deps.join(', ')}` : '';
    lines.push(`  ${i + 1}. [${t.state}] ${t.id}: ${t.description} ${route}${deps}${t.run_id ? ` (run ${t.run_id})` : ''}`);
    if (t.state === 'needs_scoping' && t.scoping_question) lines.push(`       ? ${t.scoping_question}`);
  }
  return lines.join('\n');
}
