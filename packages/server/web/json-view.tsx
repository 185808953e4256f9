import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, getJson } from './api.js';
import type { JsonValue } from './types.js';

function JsonNode({ name, value, depth }: { name: string | null; value: JsonValue; depth: number }) {
  const label = name === null ? null : <span class="json-key">{name}: </span>;
  if (value !== null && typeof value === 'object') {
    const entries: [string, JsonValue][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
    const brackets = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
    if (entries.length === 0) {
      return (
        <div class="json-leaf">
          {label}
          <span class="json-punct">{brackets.join('')}</span>
        </div>
      );
    }
    return (
      <details class="json-branch" open={depth < 1}>
        <summary>
          {label}
          <span class="json-punct">
            {brackets[0]}
            {entries.length} {Array.isArray(value) ? (entries.length === 1 ? 'item' : 'items') : entries.length === 1 ? 'key' : 'keys'}
            {brackets[1]}
          </span>
        </summary>
        <div class="json-children">
          {entries.map(([k, v]) => (
            <JsonNode key={k} name={k} value={v} depth={depth + 1} />
          ))}
        </div>
      </details>
    );
  }
  return (
    <div class="json-leaf">
      {label}
      <span class={`json-${value === null ? 'null' : typeof value}`}>{JSON.stringify(value)}</span>
    </div>
  );
}

/**
 * A collapsible JSON document of the API (`pick` of the response at
 * `path`): fetched when opened, again when `tick` changes while it is open.
 */
export function JsonPanel({ title, path, pick, tick }: { title: string; path: string; pick: string; tick: number }) {
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState<JsonValue | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    const abort = new AbortController();
    getJson<Record<string, JsonValue>>(path, abort.signal).then(
      (body) => {
        setValue(body[pick] ?? null);
        setError(null);
      },
      (e: unknown) => {
        if (!abort.signal.aborted) setError(e instanceof ApiFailure ? e.message : String(e));
      },
    );
    return () => abort.abort();
  }, [open, path, pick, tick]);
  return (
    <details class="panel json-panel" onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>
        <h2>{title}</h2>
      </summary>
      <div class="json">
        {error ? <p class="error">{error}</p> : value === undefined ? <p class="muted">Loading…</p> : <JsonNode name={null} value={value} depth={0} />}
      </div>
    </details>
  );
}
