import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure, postJson } from './api.js';
import { diagnosticLine } from './format.js';
import { navigate, runUrl } from './router.js';
import type { DiagnosticJson, RunSummary } from './types.js';

const VALIDATE_DELAY_MS = 350;

const PLACEHOLDER = `digraph Example {
  start [shape=Mdiamond]
  exit  [shape=Msquare]
  review [shape=hexagon, label="Ship it?"]
  start -> review
  review -> exit [label="[Y] Yes"]
}`;

function countOf(diagnostics: DiagnosticJson[], severity: string): number {
  return diagnostics.filter((d) => d.severity === severity).length;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The offset of `line:column` (from 1) in `text`. */
function offsetOf(text: string, line: number, column: number): number {
  const lines = text.split('\n');
  let offset = 0;
  for (let i = 0; i < Math.min(line - 1, lines.length); i++) offset += (lines[i]?.length ?? 0) + 1;
  return Math.min(text.length, offset + Math.max(0, column - 1));
}

/**
 * Starts a run from pasted DOT or an uploaded .dot file. The source is
 * checked (`POST /validate`) as it is typed; the diagnostics are shown under
 * it, each one moving the cursor to its place.
 */
export function NewRun() {
  const [source, setSource] = useState('');
  const [file, setFile] = useState('pipeline.dot');
  const [diagnostics, setDiagnostics] = useState<DiagnosticJson[] | null>(null);
  const [checking, setChecking] = useState(false);
  const [checkError, setCheckError] = useState<string | null>(null);
  const [simulate, setSimulate] = useState(false);
  const [interactive, setInteractive] = useState(false);
  const [contextText, setContextText] = useState('');
  const [contextError, setContextError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const editor = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    document.title = 'New run · orchestra';
  }, []);

  useEffect(() => {
    if (!source.trim()) {
      setDiagnostics(null);
      setChecking(false);
      return;
    }
    setChecking(true);
    const abort = new AbortController();
    const timer = setTimeout(() => {
      postJson<{ ok: boolean; diagnostics: DiagnosticJson[] }>('/validate', { source, file: file || 'pipeline.dot' }, abort.signal).then(
        (result) => {
          setDiagnostics(result.diagnostics);
          setCheckError(null);
          setChecking(false);
        },
        (e: unknown) => {
          if (abort.signal.aborted) return;
          setCheckError(e instanceof Error ? e.message : String(e));
          setChecking(false);
        },
      );
    }, VALIDATE_DELAY_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [source, file]);

  const goTo = (d: DiagnosticJson) => {
    const area = editor.current;
    if (!area) return;
    const at = offsetOf(area.value, d.line ?? 1, d.column ?? 1);
    area.focus();
    area.setSelectionRange(at, at);
  };

  const load = async (input: HTMLInputElement) => {
    const chosen = input.files?.[0];
    if (!chosen) return;
    setSource(await chosen.text());
    setFile(chosen.name);
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setSubmitError(null);
    let context: unknown;
    if (contextText.trim()) {
      try {
        context = JSON.parse(contextText);
      } catch (e) {
        setContextError(`not JSON: ${e instanceof Error ? e.message : String(e)}`);
        return;
      }
      if (!context || typeof context !== 'object' || Array.isArray(context)) {
        setContextError('the context must be a JSON object, e.g. {"branch": "main"}');
        return;
      }
    }
    setContextError(null);
    if (!source.trim()) {
      setSubmitError('Paste a pipeline or load a .dot file first.');
      editor.current?.focus();
      return;
    }
    setSubmitting(true);
    try {
      const run = await postJson<RunSummary>('/pipelines', {
        source,
        file: file || 'pipeline.dot',
        simulate,
        interactive,
        ...(context !== undefined ? { context } : {}),
      });
      navigate(runUrl(run.id));
    } catch (e) {
      setSubmitting(false);
      if (e instanceof ApiFailure && Array.isArray(e.details.diagnostics)) setDiagnostics(e.details.diagnostics as DiagnosticJson[]);
      setSubmitError(e instanceof Error ? e.message : String(e));
    }
  };

  const errors = diagnostics ? countOf(diagnostics, 'error') : 0;
  const warnings = diagnostics ? countOf(diagnostics, 'warning') : 0;
  const status = !source.trim()
    ? ''
    : checking
      ? 'Checking…'
      : checkError
        ? `Could not check: ${checkError}`
        : diagnostics === null
          ? ''
          : errors + warnings === 0 && diagnostics.length === 0
            ? 'No problems found.'
            : [errors ? plural(errors, 'error') : '', warnings ? plural(warnings, 'warning') : '', diagnostics.length - errors - warnings ? plural(diagnostics.length - errors - warnings, 'note') : '']
                .filter(Boolean)
                .join(', ') + (errors ? ': the server would refuse to run it.' : '.');

  return (
    <>
      <div class="page-head">
        <h1 tabIndex={-1}>Start a run</h1>
      </div>
      <form class="new-run" onSubmit={(e) => void submit(e)} noValidate>
        <div class="field">
          <label for="dot-file">Load a .dot file</label>
          <input id="dot-file" type="file" accept=".dot,.gv,text/vnd.graphviz,text/plain" onChange={(e) => void load(e.currentTarget as HTMLInputElement)} />
        </div>
        <div class="field">
          <label for="dot-source">Pipeline (DOT)</label>
          <textarea
            id="dot-source"
            ref={editor}
            class="source"
            rows={16}
            spellcheck={false}
            autoComplete="off"
            placeholder={PLACEHOLDER}
            value={source}
            aria-describedby="validation-status"
            onInput={(e) => setSource((e.currentTarget as HTMLTextAreaElement).value)}
          />
          <p id="validation-status" class={`validation ${errors ? 'has-errors' : ''}`} role="status">
            {status}
          </p>
          {diagnostics && diagnostics.length > 0 && (
            <ul class="diagnostics" aria-label="Diagnostics" data-testid="diagnostics">
              {diagnostics.map((d, i) => (
                <li key={i} class={`diag diag-${d.severity}`}>
                  <button type="button" class="diag-line" title={`Go to line ${d.line}, column ${d.column}`} onClick={() => goTo(d)}>
                    {diagnosticLine(d)}
                  </button>
                  {d.fix && <span class="diag-fix">Fix: {d.fix}</span>}
                </li>
              ))}
            </ul>
          )}
        </div>
        <div class="field">
          <label for="dot-name">File name</label>
          <input id="dot-name" type="text" value={file} spellcheck={false} aria-describedby="dot-name-hint" onInput={(e) => setFile((e.currentTarget as HTMLInputElement).value)} />
          <p id="dot-name-hint" class="hint">
            Diagnostics name it; the run directory is named after the graph.
          </p>
        </div>
        <fieldset>
          <legend>Options</legend>
          <div class="check">
            <input id="opt-simulate" type="checkbox" checked={simulate} onChange={(e) => setSimulate((e.currentTarget as HTMLInputElement).checked)} />
            <label for="opt-simulate">Simulate</label>
            <span class="hint">LLM stages give canned replies; no model is called.</span>
          </div>
          <div class="check">
            <input id="opt-interactive" type="checkbox" checked={interactive} onChange={(e) => setInteractive((e.currentTarget as HTMLInputElement).checked)} />
            <label for="opt-interactive">Interactive</label>
            <span class="hint">Phased LLM stages discuss with you here before they go on.</span>
          </div>
          <div class="field">
            <label for="opt-context">Context (JSON object, optional)</label>
            <textarea
              id="opt-context"
              rows={3}
              spellcheck={false}
              placeholder='{"branch": "main"}'
              value={contextText}
              aria-invalid={contextError ? 'true' : undefined}
              aria-describedby={contextError ? 'opt-context-error' : undefined}
              onInput={(e) => setContextText((e.currentTarget as HTMLTextAreaElement).value)}
            />
            {contextError && (
              <p id="opt-context-error" class="error">
                Context: {contextError}
              </p>
            )}
          </div>
        </fieldset>
        <div class="actions">
          <button type="submit" class="primary" disabled={submitting}>
            {submitting ? 'Starting…' : 'Start run'}
          </button>
        </div>
        {submitError && (
          <p role="alert" class="error">
            {submitError}
          </p>
        )}
      </form>
    </>
  );
}
