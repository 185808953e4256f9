import { mkdirSync, readFileSync, renameSync, writeFileSync, fsyncSync, openSync, closeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RecipeError } from '../recipe-error.js';
import { PlanFileSchema, type Plan } from './plan-schema.js';

/** Where a project keeps its session plan: `<project>/.orchestra/plan.json`. */
export function planFile(projectDir: string): string {
  return join(projectDir, '.orchestra', 'plan.json');
}

/**
 * Writes the plan atomically (a temporary file, flushed, then renamed over
 * it): a reader, or a process killed mid-write, sees the old plan or the new
 * one, never half of one.
 */
export function writePlan(file: string, plan: Plan): void {
  mkdirSync(dirname(file), { recursive: true });
  const next = { ...plan, updated_at: new Date().toISOString() };
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`);
  const fd = openSync(tmp, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

/** Reads a plan; a damaged file is refused (`ORCH_PLAN`) and left as it is. */
export function readPlan(file: string): Plan | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new RecipeError('ORCH_PLAN', `${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new RecipeError('ORCH_PLAN', `${file} is damaged (not JSON: ${(error as Error).message}); it was left as it is: fix it, or move it away to start a new plan`);
  }
  const parsed = PlanFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RecipeError('ORCH_PLAN', `${file} is damaged (${issue?.path.join('.') || 'the file'}: ${issue?.message}); it was left as it is: fix it, or move it away to start a new plan`);
  }
  return parsed.data;
}
