import type { Interviewer } from '@orchestra/core';
import { RecipeError } from '../recipe-error.js';
import { editTask, removeTask, repositionTask } from './plan-edits.js';
import type { Plan } from './plan-schema.js';
import { planText } from './plan-text.js';

/** The stage name plan questions carry. */
export const PLAN_STAGE = 'plan';

/**
 * Shows the plan and asks the person until they approve or cancel it:
 * approve, edit a task's description (`<id>: <new text>`), remove a task
 * (`<id>`; not one another task depends on), move one (`<id> <position>`,
 * within its dependencies), cancel: the same edits as `editTask`,
 * `removeTask` and `repositionTask`.
 * Each change is applied and saved (`save`) before the next question.
 * Resolves true when approved.
 */
export async function approvePlan(plan: Plan, interviewer: Interviewer, save: (plan: Plan) => void): Promise<boolean> {
  for (let round = 0; round < 100; round++) {
    interviewer.inform?.(planText(plan), PLAN_STAGE);
    const answer = await interviewer.ask({
      text: `${planText(plan)}\n\nApprove this plan?`,
      type: 'MULTIPLE_CHOICE',
      options: [
        { key: 'A', label: 'Approve' },
        { key: 'E', label: 'Edit a task' },
        { key: 'R', label: 'Remove a task' },
        { key: 'M', label: 'Move a task' },
        { key: 'C', label: 'Cancel' },
      ],
      stage: PLAN_STAGE,
      metadata: {},
    });
    const choice = (answer.selectedOption?.key ?? answer.value).toUpperCase();
    if (choice === 'A') return true;
    if (choice === 'C' || choice === 'SKIPPED' || choice === 'TIMEOUT') return false;
    const ask = async (text: string) => (await interviewer.ask({ text, type: 'FREEFORM', options: [], stage: PLAN_STAGE, metadata: {} })).text ?? '';
    try {
      if (choice === 'E') {
        const m = /^\s*([\w-]+)\s*:\s*(.+)$/s.exec(await ask('Which task, and its new description? (id: text)'));
        if (!m) throw new RecipeError('ORCH_PLAN', 'write the task id, a colon and the new description');
        editTask(plan, m[1] as string, m[2] as string);
      } else if (choice === 'R') {
        removeTask(plan, (await ask('Which task? (its id)')).trim());
      } else if (choice === 'M') {
        const m = /^\s*([\w-]+)\s+(\d+)\s*$/.exec(await ask('Which task, and where to? (id position)'));
        if (!m) throw new RecipeError('ORCH_PLAN', 'write the task id and its new position (1 is first)');
        repositionTask(plan, m[1] as string, Number(m[2]));
      }
      save(plan);
    } catch (error) {
      if (!(error instanceof RecipeError)) throw error;
      interviewer.inform?.(error.message, PLAN_STAGE);
    }
  }
  return false;
}
