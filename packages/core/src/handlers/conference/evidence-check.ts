import type { EvidenceRule } from './conference-types.js';
import { RECEIPT_ID } from './receipts.js';
import type { WorkspaceRead } from './workspace-files.js';

/** A line that opens with `Evidence:` (after spaces, a list marker or bold markers). */
const EVIDENCE_LINE = /^\s*(?:[-*]\s+)?(?:\*\*)?Evidence:/;

/** `"passage" (path)` or `“passage” (path)`; the path may end in `:line`. */
const QUOTE = /["“]([^"”]+)["”]\s*\(([^()\s]+?)(?::\d+(?:-\d+)?)?\)/g;

/** `path:line` or `path:line-line`, the path with a file extension. */
const LINE_REF = /(?<![\w./-])([\w][\w./-]*\.[A-Za-z0-9]+):(\d+)(?:-(\d+))?/g;

/** What a role's reply was: an abstention (with its reason) or an answer. */
export type ReplyKind = { abstain: true; reason?: string } | { abstain: false };

/** A reply whose first line is exactly `ABSTAIN` abstains; the rest of it is the reason. */
export function replyKind(reply: string): ReplyKind {
  const lines = reply.replace(/^\s*\n/, '').split('\n');
  if ((lines[0] ?? '').trim() !== 'ABSTAIN') return { abstain: false };
  const reason = lines.slice(1).join('\n').trim();
  return reason ? { abstain: true, reason } : { abstain: true };
}

/** How an answer's evidence was judged: grounded (with its `Evidence:` line) or rejected with the reason. */
export type EvidenceVerdict = { grounded: true; line: string } | { grounded: false; reason: string };

/** What a check needs besides the reply. */
export interface EvidenceSources {
  /** The receipt ids of this conference. */
  receipts: ReadonlySet<string>;
  /** Reads a workspace file (confined to the workspace). */
  readFile(path: string): WorkspaceRead;
}

/** Text as quotes are compared: whitespace runs made single spaces, every kind of quotation mark made `'`. */
export function normaliseText(text: string): string {
  return text.replace(/[‘’“”"]/g, "'").replace(/\s+/g, ' ').trim();
}

const RULE_NEEDS: Record<EvidenceRule, string> = {
  receipt: 'a receipt of the chief\'s evidence, as receipt_id: rcpt_…',
  quote: 'a quoted passage of a workspace file, as "exact words" (path) or path:line',
  any: 'a receipt (receipt_id: rcpt_…) or a quoted passage ("exact words" (path) or path:line)',
  none: '',
};

/**
 * Checks an answer's grounding: exactly one line starting `Evidence:`;
 * every receipt id it cites is one of this conference's; every quoted
 * passage occurs in the file it names (whitespace-normalised) and every
 * `path:line` names a line the file has; and it cites what the role's rule
 * asks for (`receipt`, `quote`, either for `any`, nothing for `none`).
 */
export function checkEvidence(reply: string, rule: EvidenceRule, sources: EvidenceSources): EvidenceVerdict {
  const lines = reply.split('\n').filter((line) => EVIDENCE_LINE.test(line));
  if (lines.length === 0) return { grounded: false, reason: `the answer has no line starting with "Evidence:"; end it with one that cites ${RULE_NEEDS[rule] || 'what the answer rests on'}` };
  if (lines.length > 1) return { grounded: false, reason: `the answer has ${lines.length} lines starting with "Evidence:"; keep exactly one` };
  const line = (lines[0] as string).trim();
  const body = line.replace(EVIDENCE_LINE, '');

  const cited = [...new Set(body.match(RECEIPT_ID) ?? [])];
  const unknown = cited.filter((id) => !sources.receipts.has(id));
  if (unknown.length) {
    const known = [...sources.receipts];
    return { grounded: false, reason: `${unknown.join(', ')} ${unknown.length === 1 ? 'is not a receipt' : 'are not receipts'} of this conference (${known.length ? `its receipts are ${known.join(', ')}` : 'it has no receipts'})` };
  }

  let quotes = 0;
  const files = new Map<string, WorkspaceRead>();
  const read = (path: string): WorkspaceRead => {
    let file = files.get(path);
    if (!file) {
      file = sources.readFile(path);
      files.set(path, file);
    }
    return file;
  };
  for (const match of body.matchAll(QUOTE)) {
    const [, passage, path] = match as unknown as [string, string, string];
    const file = read(path);
    if ('problem' in file) return { grounded: false, reason: `the quoted file cannot be checked: ${file.problem}` };
    if (!normaliseText(file.text).includes(normaliseText(passage))) return { grounded: false, reason: `"${passage}" does not occur in ${path}` };
    quotes += 1;
  }
  const withoutQuotes = body.replace(QUOTE, ' ');
  for (const match of withoutQuotes.matchAll(LINE_REF)) {
    const [, path, first, last] = match as unknown as [string, string, string, string | undefined];
    const file = read(path);
    if ('problem' in file) return { grounded: false, reason: `the cited file cannot be checked: ${file.problem}` };
    const count = file.text.split('\n').length - (file.text.endsWith('\n') ? 1 : 0);
    const from = Number(first);
    const to = last === undefined ? from : Number(last);
    if (from < 1 || to < from || to > count) return { grounded: false, reason: `${path} has ${count} line${count === 1 ? '' : 's'}: ${path}:${first}${last ? `-${last}` : ''} names none of them` };
    quotes += 1;
  }

  const missing =
    (rule === 'receipt' && cited.length === 0) || (rule === 'quote' && quotes === 0) || (rule === 'any' && cited.length === 0 && quotes === 0);
  if (missing) return { grounded: false, reason: `the Evidence: line cites no ${rule === 'any' ? 'receipt or quoted passage' : rule === 'receipt' ? 'receipt' : 'quoted passage'}; this role must cite ${RULE_NEEDS[rule]}` };
  return { grounded: true, line };
}
