import { resolveContextPath } from './value-path.js';

/** `{{ path }}`: a context key (dots allowed), then fields and `[]` steps. */
const REFERENCE = /\{\{\s*([A-Za-z_][\w-]*(?:\[\])?(?:\.[A-Za-z_][\w-]*(?:\[\])?)*)\s*\}\}/g;

function render(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v))).join('\n');
  if (typeof value === 'object' && value !== null) return JSON.stringify(value, null, 2);
  return String(value);
}

/**
 * Expands `{{path}}` references in a prompt from the run's context: the
 * path starts with a context key (matched longest first, as keys hold
 * dots) and may go on into its value (`{{thread_design.output.threads[].thread_id}}`).
 * A string is inserted as it is, a list one element per line (objects as
 * JSON), any other object as indented JSON; a path with `[]` steps lists
 * every value it reaches, one per line. A reference whose start is no
 * context key is left as written (a prompt may show `{{...}}` for other
 * reasons), and reported in `unresolved`.
 */
export function expandContextReferences(text: string, context: Readonly<Record<string, unknown>>): { text: string; unresolved: string[] } {
  const unresolved: string[] = [];
  if (!text.includes('{{')) return { text, unresolved };
  const expanded = text.replace(REFERENCE, (whole, path: string) => {
    const found = resolveContextPath(path, context);
    if (!found) {
      unresolved.push(path);
      return whole;
    }
    if (!path.includes('[]') && found.length === 1) return render(found[0]?.value);
    return found.map((f) => render(f.value)).join('\n');
  });
  return { text: expanded, unresolved };
}
