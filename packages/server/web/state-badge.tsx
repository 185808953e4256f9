const DESCRIPTIONS: Record<string, string> = {
  running: 'running',
  completed: 'completed',
  failed: 'failed',
  parked: 'parked: waits for an answer',
  stopped: 'stopped: can be resumed',
  restarted: 'restarted as a new run',
  unreadable: 'unreadable',
};

/** A run's state as a coloured label (the word is always there: colour only repeats it). */
export function StateBadge({ state, live, announce = false }: { state: string; live?: boolean; announce?: boolean }) {
  return (
    <span class={`badge badge-${state.replace(/[^a-z_-]/gi, '')}`} {...(announce ? { role: 'status', 'aria-live': 'polite', 'data-testid': 'run-state' } : {})}>
      <span class="visually-hidden">State: </span>
      {DESCRIPTIONS[state] ?? state}
      {live === false && state === 'running' ? ' (elsewhere)' : ''}
    </span>
  );
}
