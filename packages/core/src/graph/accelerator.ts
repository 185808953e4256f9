/** A choice label split into its accelerator key and the label proper. */
export interface Accelerator {
  /** Upper-case key (`A`), or `""` when there is nothing to take one from. */
  key: string;
  /** The label without the accelerator prefix, trimmed. */
  label: string;
}

const BRACKETED = /^\s*\[([A-Za-z0-9])\]\s*(.*)$/s;
const PAREN = /^\s*([A-Za-z0-9])\)\s+(.*)$/s;
const DASHED = /^\s*([A-Za-z0-9])\s+-\s+(.*)$/s;

/**
 * Splits a choice label into accelerator key and label: `[K] Label`,
 * `K) Label` and `K - Label` name the key explicitly; otherwise the label's
 * first letter or digit is the key. An empty label falls back to `fallback`
 * (the target node id, for edges). The one parser used by human gates and by
 * edge-label matching.
 */
export function parseAccelerator(text: string, fallback = ''): Accelerator {
  const source = text.trim() ? text : fallback;
  for (const pattern of [BRACKETED, PAREN, DASHED]) {
    const m = pattern.exec(source);
    if (m) return { key: (m[1] as string).toUpperCase(), label: (m[2] as string).trim() };
  }
  const label = source.trim();
  const first = /[A-Za-z0-9]/.exec(label);
  return { key: first ? first[0].toUpperCase() : '', label };
}

/** A label for matching (spec §3.3): accelerator prefix removed, trimmed, lower-cased. */
export function normalizeLabel(text: string): string {
  return parseAccelerator(text).label.toLowerCase();
}
