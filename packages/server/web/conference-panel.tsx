import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiFailure, getJson, runPath } from './api.js';
import type { RoleProgress } from './conference-stages.js';
import { ReceiptEntry } from './receipt-entry.js';
import { useRefresher } from './refresh.js';
import { RoleCard } from './role-card.js';
import type { ConferenceStageJson } from './types.js';

type Loaded = { state: 'loading' } | { state: 'none' } | { state: 'error'; message: string } | { state: 'ok'; record: ConferenceStageJson };

/** The roles' progress from the events, while the stage has no record yet. */
function Progress({ roles }: { roles: RoleProgress[] }) {
  if (roles.length === 0) return <p class="muted">No record yet: it is written when the stage ends.</p>;
  return (
    <p class="muted">
      Under way:{' '}
      {roles.map((r, i) => (
        <span key={r.role}>
          {i > 0 && ' · '}
          {r.role} {r.status ?? 'working…'}
        </span>
      ))}
    </p>
  );
}

function Record({ record }: { record: ConferenceStageJson }) {
  const { conference } = record;
  const receipts = record.receipts.length > 0 ? record.receipts : (conference.evidence ?? []);
  const ids = useMemo(() => new Set(receipts.map((r) => r.receipt_id)), [receipts]);
  const answered = conference.roles.filter((r) => r.status === 'answered').length;
  return (
    <>
      <p class="conference-question">{conference.question}</p>
      <p class="muted">
        {answered} of {conference.roles.length} roles answered
        {conference.quorum !== undefined ? ` (quorum ${conference.quorum})` : ''}
        {conference.status ? `: ${conference.status}` : ''}
      </p>
      <div class="conference-body">
        <section aria-label="The chief's evidence">
          <h3>Evidence</h3>
          {conference.chief?.reply && (
            <p class="chief-reply">
              <span class="role-label">Chief{conference.chief.model ? ` (${conference.chief.model})` : ''}: </span>
              {conference.chief.reply}
            </p>
          )}
          {receipts.length === 0 ? (
            <p class="muted">The chief gathered no receipts.</p>
          ) : (
            <ol class="receipts">
              {receipts.map((r) => (
                <ReceiptEntry key={r.receipt_id} receipt={r} />
              ))}
            </ol>
          )}
        </section>
        <section aria-label="The roles' answers">
          <h3>Roles</h3>
          <ol class="role-cards">
            {conference.roles.map((role) => (
              <RoleCard key={role.role} role={role} receipts={ids} />
            ))}
          </ol>
        </section>
      </div>
    </>
  );
}

/**
 * A conference stage of a run: the question, the chief's receipts, and a
 * card per role in the roles' order (`GET /pipelines/{id}/stages/{node}/conference`).
 * Read again each time `updates` grows (a role completed, the stage ended).
 */
export function ConferencePanel({ runId, nodeId, updates, roles }: { runId: string; nodeId: string; updates: number; roles: RoleProgress[] }) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const load = useRefresher(async () => {
    try {
      const record = await getJson<ConferenceStageJson>(runPath(runId, `/stages/${encodeURIComponent(nodeId)}/conference`));
      setLoaded({ state: 'ok', record });
    } catch (e) {
      if (e instanceof ApiFailure && e.status === 404 && e.code === 'ORCH_NOT_FOUND') setLoaded({ state: 'none' });
      else setLoaded((before) => (before.state === 'ok' ? before : { state: 'error', message: e instanceof Error ? e.message : String(e) }));
    }
  });
  useEffect(() => load(), [load, updates]);
  const headingId = `conference-${nodeId}`;
  return (
    <section class="panel conference" aria-labelledby={headingId} data-testid="conference">
      <h2 id={headingId}>
        Conference <code>{nodeId}</code>
      </h2>
      {loaded.state === 'ok' ? (
        <Record record={loaded.record} />
      ) : loaded.state === 'none' ? (
        <Progress roles={roles} />
      ) : loaded.state === 'error' ? (
        <p class="error">{loaded.message}</p>
      ) : (
        <p class="muted">Loading…</p>
      )}
    </section>
  );
}
