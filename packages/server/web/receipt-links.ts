/** A piece of an `Evidence:` line: text, or a receipt id it cites. */
export type EvidencePiece = { text: string } | { receipt: string };

/** Receipt ids as the conference writes them: `rcpt_` and hex digits (letters, digits, `_`, `-` accepted). */
const RECEIPT_ID = /rcpt_[A-Za-z0-9_-]+/g;

/** Splits an `Evidence:` line into text and the receipt ids it cites, in order. */
export function evidencePieces(line: string): EvidencePiece[] {
  const pieces: EvidencePiece[] = [];
  let at = 0;
  for (const match of line.matchAll(RECEIPT_ID)) {
    const start = match.index ?? 0;
    if (start > at) pieces.push({ text: line.slice(at, start) });
    pieces.push({ receipt: match[0] });
    at = start + match[0].length;
  }
  if (at < line.length) pieces.push({ text: line.slice(at) });
  return pieces;
}

/**
 * The element id of a receipt's entry on the page (so `#rcpt_…` links to
 * it): the receipt id itself when it looks like one, else none (an id from
 * a run's files never becomes an arbitrary element id).
 */
export function receiptAnchor(receiptId: string): string | undefined {
  return /^rcpt_[A-Za-z0-9_-]{1,64}$/.test(receiptId) ? receiptId : undefined;
}
