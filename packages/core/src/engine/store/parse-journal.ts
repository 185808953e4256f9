import { JournalEntrySchema, type JournalEntry, type JournalRead } from './records.js';

/**
 * The journal read back from its serialized lines (one JSON entry each),
 * for stores that keep it as text: every line is checked; reading stops at
 * the first damaged one and says which (`what` names the journal in that
 * message, e.g. `journal.jsonl line`).
 */
export function parseJournalLines(lines: readonly string[], torn: boolean, what = 'journal entry'): JournalRead {
  const entries: JournalEntry[] = [];
  for (let i = 0; i < lines.length; i++) {
    let entry: JournalEntry | undefined;
    try {
      const result = JournalEntrySchema.safeParse(JSON.parse(lines[i] as string));
      if (result.success) entry = result.data;
    } catch {
      // reported below
    }
    if (!entry) return { entries, problem: `${what} ${i + 1} is damaged; replay stopped before it`, torn };
    entries.push(entry);
  }
  return { entries, torn };
}
