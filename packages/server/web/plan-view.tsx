import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, postJson, sendJson } from './api.js';
import { usePlan } from './plan-load.js';
import { ProposePlan } from './plan-propose.js';
import { PlanQuestion } from './plan-question.js';
import { PlanStateBadge } from './plan-state-badge.js';
import { PlanTaskItem, type TaskActions } from './plan-task.js';
import type { PlanJson } from './types.js';

/** Whether the server serves a project's plan (`orchestra serve --project`; its page says so in a meta tag). */
export function servesPlan(): boolean {
  return document.querySelector('meta[name="orchestra-plan"]')?.getAttribute('content') === 'project';
}

function messageOf(e: unknown): string {
  return e instanceof ApiFailure || e instanceof Error ? e.message : String(e);
}

/** The plan's buttons: approve (start) a proposed plan, pause a running one, resume a paused one. */
function PlanControls({ plan, busy, act }: { plan: PlanJson; busy: boolean; act: (path: string, what: string) => void }) {
  const stopped = !plan.active && (plan.state === 'paused' || plan.state === 'running');
  return (
    <div class="plan-controls actions">
      {plan.state === 'proposed' && (
        <button type="button" class="primary" disabled={busy || plan.tasks.every((t) => t.state === 'removed')} onClick={() => act('/plan/start', 'Starting')}>
          Approve and start
        </button>
      )}
      {plan.active && (
        <button type="button" disabled={busy} onClick={() => act('/plan/pause', 'Pausing (the running task stops at its next safe point)')}>
          Pause
        </button>
      )}
      {stopped && (
        <button type="button" class="primary" disabled={busy} onClick={() => act('/plan/resume', 'Resuming')}>
          Resume
        </button>
      )}
    </div>
  );
}

/**
 * The project's session plan (`orchestra serve --project`): the chief's
 * tasks as a checklist in the plan's order, each with its state, recipe,
 * dependencies and run; edited, removed and moved before it starts, then
 * approved; paused and resumed while it runs; a blocked task forced; its
 * questions (scoping, follow-ups, the task runs' gates) answered in place.
 * Read again every second while it runs.
 */
export function PlanView() {
  const { load, error, refresh, show } = usePlan();
  const [busy, setBusy] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  useEffect(() => {
    document.title = 'Plan · orchestra';
  }, []);

  const run = async (what: string, request: () => Promise<PlanJson>): Promise<boolean> => {
    setBusy(what);
    setActionError(null);
    try {
      show(await request());
      return true;
    } catch (e) {
      setActionError(messageOf(e));
      refresh();
      return false;
    } finally {
      setBusy(null);
    }
  };
  const act = (path: string, what: string) => void run(what, () => postJson<PlanJson>(path, {}));
  const task = (id: string, rest = '') => `/plan/tasks/${encodeURIComponent(id)}${rest}`;
  const actions: TaskActions = {
    busy: busy !== null,
    edit: (id, description) => run('Saving', () => sendJson<PlanJson>('PATCH', task(id), { description })),
    remove: (id) => void run('Removing', () => sendJson<PlanJson>('DELETE', task(id), {})),
    move: (id, position) => void run('Moving', () => postJson<PlanJson>(task(id, '/move'), { position })),
    force: (id) => void run('Starting the task', () => postJson<PlanJson>(task(id, '/force'), {})),
  };

  let body;
  if (load.status === 'loading') body = <p class="muted">Loading…</p>;
  else if (load.status === 'refused')
    body = (
      <p role="alert" class="error">
        {load.message}
      </p>
    );
  else if (load.status === 'none') body = <ProposePlan replaces={false} onProposed={show} />;
  else {
    const { plan } = load;
    const ids = new Set(plan.tasks.map((t) => t.id));
    const loose = plan.questions.filter((q) => !q.task || !ids.has(q.task));
    const ended = plan.state === 'done' || plan.state === 'failed';
    body = (
      <>
        <section class="panel plan-summary" aria-labelledby="plan-heading">
          <p class="eyebrow">The plan for</p>
          <h2 id="plan-heading" class="plan-intent">
            {plan.intent}
          </h2>
          <p class="plan-standing">
            <span role="status" aria-live="polite" data-testid="plan-state">
              <PlanStateBadge state={plan.state} label="Plan" />
            </span>
            {plan.active && <span class="muted"> · running in this server</span>}
            {plan.simulate && <span class="muted"> · simulated</span>}
          </p>
          {plan.error && <p class="error">The plan stopped: {plan.error}</p>}
          <PlanControls plan={plan} busy={busy !== null} act={act} />
          {busy && (
            <p role="status" class="muted">
              {busy}…
            </p>
          )}
          {actionError && (
            <p role="alert" class="error" data-testid="plan-error">
              {actionError}
            </p>
          )}
        </section>
        {loose.map((q) => (
          <PlanQuestion key={q.id} q={q} onAnswered={refresh} />
        ))}
        <h2 class="plan-tasks-title">Tasks</h2>
        <ol class="plan-tasks" aria-label="Tasks, in the order they run">
          {plan.tasks.map((t, i) => (
            <PlanTaskItem key={t.id} plan={plan} task={t} position={i + 1} last={plan.tasks.length} questions={plan.questions.filter((q) => q.task === t.id)} actions={actions} onAnswered={refresh} />
          ))}
        </ol>
        {(ended || plan.state === 'proposed') && (
          <details class="plan-new" open={ended}>
            <summary>{ended ? 'Plan something else' : 'Ask for a different plan instead'}</summary>
            <ProposePlan replaces onProposed={show} />
          </details>
        )}
      </>
    );
  }

  return (
    <>
      <div class="page-head">
        <h1 tabIndex={-1}>Plan</h1>
      </div>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {body}
    </>
  );
}
