import { useState } from 'preact/hooks';
import { PlanQuestion } from './plan-question.js';
import { PlanStateBadge } from './plan-state-badge.js';
import { Link, runUrl } from './router.js';
import type { PlanJson, PlanQuestionJson, PlanTaskJson } from './types.js';

/** What a task's buttons do (each sends one request; the caller shows its error). */
export interface TaskActions {
  busy: boolean;
  edit(id: string, description: string): Promise<boolean>;
  remove(id: string): void;
  move(id: string, position: number): void;
  force(id: string): void;
}

/** The description, or a form editing it (before the plan starts). */
function Description({ task, actions, editing, setEditing }: { task: PlanTaskJson; actions: TaskActions; editing: boolean; setEditing: (on: boolean) => void }) {
  const [text, setText] = useState(task.description);
  if (!editing) return <p class="plan-task-description">{task.description}</p>;
  const inputId = `plan-edit-${task.id}`;
  return (
    <form
      class="plan-task-edit"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) void actions.edit(task.id, text).then((ok) => ok && setEditing(false));
      }}
    >
      <label for={inputId}>New description of task {task.id}</label>
      <textarea id={inputId} rows={2} value={text} onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)} disabled={actions.busy} />
      <div class="actions">
        <button type="submit" class="primary" disabled={actions.busy || !text.trim()}>
          Save
        </button>
        <button type="button" onClick={() => setEditing(false)} disabled={actions.busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * A task of the plan's checklist: its place, state, description, recipe
 * and dependencies, its run (a link to the run's page), and what the person
 * can do with it now: before the plan starts, edit, remove, move up or
 * down; once it runs, force a blocked task. The questions about it are
 * answered here.
 */
export function PlanTaskItem({ plan, task, position, last, questions, actions, onAnswered }: { plan: PlanJson; task: PlanTaskJson; position: number; last: number; questions: PlanQuestionJson[]; actions: TaskActions; onAnswered: () => void }) {
  const [editing, setEditing] = useState(false);
  const proposed = plan.state === 'proposed' && !plan.active;
  const removed = task.state === 'removed';
  const hidden = (text: string) => <span class="visually-hidden"> {text}</span>;
  return (
    <li class={`plan-task plan-task-${task.state}`} data-testid="plan-task" data-task={task.id} aria-labelledby={`plan-task-${task.id}`}>
      <div class="plan-task-head">
        <span class="plan-task-number" aria-hidden="true">
          {position}.
        </span>
        <h3 id={`plan-task-${task.id}`} class="plan-task-id">
          <span class="visually-hidden">Task </span>
          <code>{task.id}</code>
        </h3>
        <PlanStateBadge state={task.state} />
        {task.forced && <span class="tag">forced</span>}
        {task.follow_up_of && <span class="muted">follow-up of {task.follow_up_of}</span>}
      </div>
      <Description key={`${task.id}-${editing}`} task={task} actions={actions} editing={editing} setEditing={setEditing} />
      <p class="plan-task-meta muted">
        {task.recipe_id ? (
          <>
            recipe <code>{task.recipe_id}</code>
          </>
        ) : (
          'no recipe yet'
        )}
        {task.deps.length > 0 && (
          <>
            {' · after '}
            {task.deps.map((d, i) => (
              <span key={d}>
                {i > 0 && ', '}
                <code>{d}</code>
              </span>
            ))}
          </>
        )}
        {task.findings !== null && ` · ${task.findings} finding${task.findings === 1 ? '' : 's'}`}
      </p>
      {task.scoping_question && <p class="plan-task-scoping">The chief asks: {task.scoping_question}</p>}
      {task.answer && <p class="plan-task-answer">Your answer: {task.answer}</p>}
      {task.failure_reason && <p class="error plan-task-failure">{task.failure_reason}</p>}
      {task.run_id && (
        <p class="plan-task-run">
          <Link href={runUrl(task.run_id)}>
            Run <code>{task.run_id}</code>
            {hidden(`of task ${task.id}`)}
          </Link>
        </p>
      )}
      {!removed && (proposed || task.state === 'blocked') && !editing && (
        <div class="plan-task-actions" role="group" aria-label={`Task ${task.id}`}>
          {proposed && (
            <>
              <button type="button" onClick={() => setEditing(true)} disabled={actions.busy}>
                Edit{hidden(`task ${task.id}`)}
              </button>
              <button type="button" onClick={() => actions.move(task.id, position - 1)} disabled={actions.busy || position === 1}>
                Move up{hidden(`task ${task.id}`)}
              </button>
              <button type="button" onClick={() => actions.move(task.id, position + 1)} disabled={actions.busy || position === last}>
                Move down{hidden(`task ${task.id}`)}
              </button>
              <button type="button" class="danger" onClick={() => actions.remove(task.id)} disabled={actions.busy}>
                Remove{hidden(`task ${task.id}`)}
              </button>
            </>
          )}
          {task.state === 'blocked' && !proposed && (
            <button type="button" onClick={() => actions.force(task.id)} disabled={actions.busy}>
              Force start{hidden(`task ${task.id}`)}
            </button>
          )}
        </div>
      )}
      {questions.map((q) => (
        <PlanQuestion key={q.id} q={q} onAnswered={onAnswered} />
      ))}
    </li>
  );
}
