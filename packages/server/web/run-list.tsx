import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, getJson } from './api.js';
import { dateTime } from './format.js';
import { Link, runUrl } from './router.js';
import { StateBadge } from './state-badge.js';
import type { RunListEntry } from './types.js';

const POLL_MS = 3000;

/** The runs in the server's runs directory, newest first, refreshed every few seconds. */
export function RunList() {
  const [runs, setRuns] = useState<RunListEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    document.title = 'Runs · orchestra';
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const body = await getJson<{ runs: RunListEntry[] }>('/pipelines');
        if (stopped) return;
        setRuns(body.runs);
        setError(null);
      } catch (e) {
        if (stopped) return;
        setError(e instanceof ApiFailure ? e.message : String(e));
        if (e instanceof ApiFailure && e.status === 401) return;
      }
      timer = setTimeout(() => void load(), POLL_MS);
    };
    void load();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);

  return (
    <>
      <div class="page-head">
        <h1 tabIndex={-1}>Runs</h1>
        <Link href="/new" class="button">
          Start a run
        </Link>
      </div>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {runs === null && !error && <p class="muted">Loading…</p>}
      {runs?.length === 0 && (
        <p>
          No runs yet. <Link href="/new">Start one</Link> from a DOT pipeline.
        </p>
      )}
      {runs && runs.length > 0 && (
        <table class="runs">
          <caption class="visually-hidden">Runs, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Pipeline</th>
              <th scope="col">State</th>
              <th scope="col">Started</th>
              <th scope="col">Run id</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) =>
              'pipeline' in run ? (
                <tr key={run.id}>
                  <td data-label="Pipeline">
                    <Link href={runUrl(run.id)}>{run.pipeline}</Link>
                    {run.questions.length > 0 && <span class="waiting"> · waits for an answer</span>}
                  </td>
                  <td data-label="State">
                    <StateBadge state={run.state} live={run.live} />
                  </td>
                  <td data-label="Started">{dateTime(run.started_at)}</td>
                  <td data-label="Run id">
                    <Link href={runUrl(run.id)}>
                      <code>{run.id}</code>
                    </Link>
                  </td>
                </tr>
              ) : (
                <tr key={run.id}>
                  <td data-label="Pipeline">?</td>
                  <td data-label="State">
                    <StateBadge state="unreadable" />
                  </td>
                  <td data-label="Started">{run.error}</td>
                  <td data-label="Run id">
                    <code>{run.id}</code>
                  </td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      )}
    </>
  );
}
