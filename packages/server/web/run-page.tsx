import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiFailure, getJson, getText, postJson, runPath } from './api.js';
import { ConferencePanel } from './conference-panel.js';
import { conferenceStages } from './conference-stages.js';
import { ConversationView } from './conversation.js';
import { EventLog } from './event-log.js';
import { changesPicture, changesSummary } from './event-types.js';
import { dateTime, moneyText, tokenCount } from './format.js';
import { choicesOf, GateQuestion } from './gate-question.js';
import { JsonPanel } from './json-view.js';
import { PipelinePicture } from './pipeline-picture.js';
import { useRefresher } from './refresh.js';
import { Link, runUrl } from './router.js';
import { useRunStream } from './run-stream.js';
import { StateBadge } from './state-badge.js';
import type { QuestionJson, RunSummary } from './types.js';

/** The questions a run waits for: gates as controls, interactive nodes as chats. */
function Questions({
  summary,
  deltas,
  onAnswer,
}: {
  summary: RunSummary;
  deltas: ReturnType<typeof useRunStream>['deltas'];
  onAnswer: (q: QuestionJson, answer: string) => Promise<void>;
}) {
  const conversations = summary.conversations ?? [];
  const gates = summary.questions.filter((q) => !q.conversation);
  // An interactive node's agent text says which turn it is; other stages' text streams without one.
  const streaming = [...deltas.entries()];
  const chatNodes = [
    ...new Set([
      ...conversations.map((c) => c.node_id),
      ...summary.questions.filter((q) => q.conversation).map((q) => q.node_id),
      ...streaming.filter(([, d]) => d.turn !== null).map(([node]) => node),
    ]),
  ];
  const writing = streaming.filter(([node, d]) => d.turn === null && !chatNodes.includes(node));
  if (gates.length === 0 && chatNodes.length === 0 && writing.length === 0) return null;
  // The keyboard answers one question at a time: the oldest that has choices.
  const keyed = gates.find((q) => choicesOf(q).some((c) => c.accelerator));
  return (
    <div class="questions">
      {gates.map((q) => (
        <GateQuestion key={q.id} q={q} accelerators={q === keyed} onAnswer={(answer) => onAnswer(q, answer)} />
      ))}
      {chatNodes.map((node) => (
        <ConversationView
          key={node}
          nodeId={node}
          conversation={conversations.find((c) => c.node_id === node)}
          question={summary.questions.find((q) => q.conversation && q.node_id === node)}
          streamed={deltas.get(node)}
          live={summary.live}
          onAnswer={onAnswer}
        />
      ))}
      {writing.map(([node, d]) => (
        <section key={node} class="panel writing" aria-label={`Output of ${node}`}>
          <p class="eyebrow">
            <code>{node}</code> is writing…
          </p>
          <p class="msg-text streaming-text">{d.text}</p>
        </section>
      ))}
    </div>
  );
}

/**
 * A run's page: where it stands, its pipeline drawn with each node's state,
 * its events as they happen, the questions it waits for, cancel / resume,
 * and its context and checkpoint. Everything follows the run's event stream.
 */
export function RunPage({ id }: { id: string }) {
  const [summary, setSummary] = useState<RunSummary | null>(null);
  const [loadError, setLoadError] = useState<ApiFailure | null>(null);
  const [svg, setSvg] = useState<string | null>(null);
  const [pictureError, setPictureError] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  const [tick, setTick] = useState(0);
  const [busy, setBusy] = useState<'cancel' | 'resume' | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  const refreshSummary = useRefresher(async () => {
    try {
      setSummary(await getJson<RunSummary>(runPath(id)));
      setLoadError(null);
    } catch (e) {
      if (e instanceof ApiFailure) setLoadError(e);
    }
  });
  const refreshPicture = useRefresher(async () => {
    try {
      setSvg(await getText(runPath(id, '/graph')));
      setPictureError(null);
    } catch (e) {
      // The last picture stays, if there is one.
      setPictureError(e instanceof Error ? e.message : String(e));
    }
  }, 120);
  useEffect(() => {
    refreshSummary();
    refreshPicture();
  }, [refreshSummary, refreshPicture]);

  const stream = useRunStream(id, generation, (type) => {
    if (type === 'llm.delta') return;
    if (changesSummary(type) || type === 'end' || type === 'error') refreshSummary();
    if (changesPicture(type) || type === 'end') refreshPicture();
    if (type === 'checkpoint.saved' || type === 'end' || type.startsWith('pipeline.')) setTick((t) => t + 1);
  });

  // The conference stages the events name so far: read again when events arrive (not for streamed text).
  const conferences = useMemo(() => conferenceStages(stream.events), [stream.events, stream.events.length]);

  useEffect(() => {
    document.title = summary ? `${summary.pipeline} (${summary.state}) · orchestra` : 'Run · orchestra';
  }, [summary?.pipeline, summary?.state]);

  const answer = async (q: QuestionJson, text: string) => {
    try {
      await postJson(runPath(id, `/questions/${encodeURIComponent(q.id)}/answer`), { answer: text });
      // A parked run answered here is resumed: follow its new events.
      if (q.source === 'parked') setGeneration((g) => g + 1);
    } finally {
      refreshSummary();
    }
  };
  const act = async (what: 'cancel' | 'resume') => {
    setBusy(what);
    setActionError(null);
    try {
      setSummary(await postJson<RunSummary>(runPath(id, `/${what}`)));
      if (what === 'resume') setGeneration((g) => g + 1);
    } catch (e) {
      setActionError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(null);
      refreshSummary();
      refreshPicture();
    }
  };

  const canCancel = summary?.live === true;
  const canResume = summary !== null && !summary.live && (summary.state === 'stopped' || summary.state === 'parked');

  return (
    <>
      <header class="run-head">
        <div class="run-title">
          <h1 tabIndex={-1}>{summary?.pipeline ?? 'Run'}</h1>
          {summary && <StateBadge state={summary.state} live={summary.live} announce />}
        </div>
        <dl class="run-facts">
          <div>
            <dt>Run</dt>
            <dd>
              <code>{id}</code>
            </dd>
          </div>
          {summary?.goal && (
            <div>
              <dt>Goal</dt>
              <dd>{summary.goal}</dd>
            </div>
          )}
          {summary && (
            <div>
              <dt>Started</dt>
              <dd>{dateTime(summary.started_at)}</dd>
            </div>
          )}
          {summary?.usage && (
            <div>
              <dt>Tokens</dt>
              <dd>{tokenCount(summary.usage.total_tokens)}</dd>
            </div>
          )}
          {summary?.usage?.cost && (
            <div>
              <dt>Cost</dt>
              <dd class="run-cost">{moneyText(summary.usage.cost)}</dd>
            </div>
          )}
        </dl>
        {(canCancel || canResume) && (
          <div class="actions">
            {canCancel && (
              <button type="button" class="danger" disabled={busy !== null} onClick={() => void act('cancel')}>
                {busy === 'cancel' ? 'Cancelling…' : 'Cancel run'}
              </button>
            )}
            {canResume && (
              <button type="button" disabled={busy !== null} onClick={() => void act('resume')}>
                {busy === 'resume' ? 'Resuming…' : 'Resume run'}
              </button>
            )}
          </div>
        )}
      </header>
      {loadError && (
        <p role="alert" class="error">
          {loadError.status === 404 ? `There is no run ${id}.` : loadError.message}
        </p>
      )}
      {actionError && (
        <p role="alert" class="error">
          {actionError}
        </p>
      )}
      {summary?.failure_reason && (
        <p class="failure">
          <strong>Failed:</strong> {summary.failure_reason}
        </p>
      )}
      {summary?.server_error && (
        <p class="failure">
          <strong>Server error:</strong> {summary.server_error}
        </p>
      )}
      {summary?.restarted_to && (
        <p class="muted">
          Restarted: it goes on {summary.restarted_to_id ? (
            <>
              as run{' '}
              <Link href={runUrl(summary.restarted_to_id)}>
                <code>{summary.restarted_to_id}</code>
              </Link>{' '}
            </>
          ) : null}
          (<code>{summary.restarted_to}</code>).
        </p>
      )}
      {summary && <Questions summary={summary} deltas={stream.deltas} onAnswer={answer} />}
      <div class="run-grid">
        <section class="panel" aria-labelledby="picture-heading">
          <h2 id="picture-heading">Pipeline</h2>
          <PipelinePicture svg={svg} error={pictureError} pipeline={summary?.pipeline ?? id} current={summary?.current_node ?? null} />
        </section>
        <section class="panel" aria-labelledby="events-heading">
          <h2 id="events-heading">Events</h2>
          <EventLog events={stream.events} version={stream.version} status={stream.status} />
        </section>
      </div>
      {conferences.map((c) => (
        <ConferencePanel key={c.nodeId} runId={id} nodeId={c.nodeId} updates={c.updates} roles={c.roles} />
      ))}
      <div class="run-data">
        <JsonPanel title="Context" path={runPath(id, '/context')} pick="context" tick={tick} />
        <JsonPanel title="Checkpoint" path={runPath(id, '/checkpoint')} pick="checkpoint" tick={tick} />
      </div>
    </>
  );
}
