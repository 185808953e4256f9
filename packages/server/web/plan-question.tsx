import { postJson } from './api.js';
import { GateQuestion } from './gate-question.js';
import type { PlanQuestionJson } from './types.js';

/**
 * A question the plan waits for, answered where it is shown: a scoping
 * question (free text), a follow-up proposal (yes or no), a recipe gate of
 * a task's run (its choices). Shown as a gate question of a run.
 */
export function PlanQuestion({ q, onAnswered }: { q: PlanQuestionJson; onAnswered: () => void }) {
  const where = q.run_id ? `${q.task ?? ''} · ${q.node_id}` : q.task ? `task ${q.task}` : 'plan';
  return (
    <div class="plan-question" data-testid="plan-question" data-question={q.id}>
      <GateQuestion
        key={q.id}
        q={{ ...q, node_id: where }}
        accelerators={false}
        onAnswer={async (answer) => {
          await postJson(`/plan/questions/${encodeURIComponent(q.id)}/answer`, { answer });
          onAnswered();
        }}
      />
    </div>
  );
}
