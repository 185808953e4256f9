import { useState } from 'preact/hooks';
import { ApiFailure, postJson } from './api.js';
import type { PlanJson } from './types.js';

/** Asks the chief for a plan: what the person wants (`POST /plan`), simulated or with the server's model. */
export function ProposePlan({ onProposed, replaces }: { onProposed: (plan: PlanJson) => void; replaces: boolean }) {
  const [intent, setIntent] = useState('');
  const [simulate, setSimulate] = useState(false);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!intent.trim() || sending) return;
    setSending(true);
    setError(null);
    try {
      onProposed(await postJson<PlanJson>('/plan', { intent, ...(simulate ? { simulate: true } : {}) }));
      setIntent('');
    } catch (e) {
      setError(e instanceof ApiFailure || e instanceof Error ? e.message : String(e));
    } finally {
      setSending(false);
    }
  };

  return (
    <form class="panel plan-propose" onSubmit={(e) => void submit(e)} aria-labelledby="plan-propose-title">
      <h2 id="plan-propose-title">{replaces ? 'A new plan' : 'Plan something'}</h2>
      <div class="field">
        <label for="plan-intent">What do you want done?</label>
        <textarea id="plan-intent" rows={3} value={intent} onInput={(e) => setIntent((e.currentTarget as HTMLTextAreaElement).value)} disabled={sending} />
        <p class="hint">The chief splits it into tasks, each routed to one of the project's recipes. You can edit, remove and reorder them before you start.{replaces ? ' This replaces the plan below.' : ''}</p>
      </div>
      <div class="check">
        <input id="plan-simulate" type="checkbox" checked={simulate} onChange={(e) => setSimulate((e.currentTarget as HTMLInputElement).checked)} disabled={sending} />
        <label for="plan-simulate">Simulate</label>
        <span class="hint">The chief and the recipes' agents give canned replies; no model is called.</span>
      </div>
      <div class="actions">
        <button type="submit" class="primary" disabled={sending || !intent.trim()}>
          {sending ? 'The chief is planning…' : 'Ask the chief for a plan'}
        </button>
      </div>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </form>
  );
}
