/** What each state of a plan's task, or of the plan, says in words. */
const DESCRIPTIONS: Record<string, string> = {
  pending: 'pending',
  blocked: 'blocked: a dependency did not finish',
  needs_scoping: 'needs scoping: no recipe takes it yet',
  running: 'running',
  done: 'done',
  failed: 'failed',
  removed: 'removed',
  proposed: 'proposed: waits for your approval',
  paused: 'paused: can be resumed',
};

/** The badge colour class of a state (run colours: running, completed, failed, parked). */
const COLOURS: Record<string, string> = { running: 'running', done: 'completed', failed: 'failed', blocked: 'failed', needs_scoping: 'parked', proposed: 'parked', paused: 'parked' };

/** A task's or a plan's state as a coloured label (the word is always there: colour only repeats it). */
export function PlanStateBadge({ state, label = 'State' }: { state: string; label?: string }) {
  return (
    <span class={`badge badge-${COLOURS[state] ?? 'plain'} plan-state-${state.replace(/[^a-z_-]/gi, '')}`} data-state={state}>
      <span class="visually-hidden">{label}: </span>
      {DESCRIPTIONS[state] ?? state}
    </span>
  );
}
