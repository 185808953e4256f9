import type { Receipt } from './conference-types.js';

/** Most characters of one receipt's payload shown to the roles. */
export const SHOWN_PAYLOAD_CHARS = 8000;

/** The chief's evidence as the roles see it: each tool result under its receipt id, tool and arguments. */
export function renderEvidence(receipts: readonly Receipt[]): string {
  if (receipts.length === 0) return '(the chief called no tools: there is no evidence)';
  return receipts
    .map((r) => {
      const payload = r.payload.length > SHOWN_PAYLOAD_CHARS ? `${r.payload.slice(0, SHOWN_PAYLOAD_CHARS)}\n… (${r.payload.length - SHOWN_PAYLOAD_CHARS} more characters)` : r.payload;
      return `[receipt_id: ${r.receiptId}] ${r.tool} ${JSON.stringify(r.arguments)} (${r.status})\n${payload}`;
    })
    .join('\n\n');
}
