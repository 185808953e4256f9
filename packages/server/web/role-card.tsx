import { evidencePieces, receiptAnchor } from './receipt-links.js';
import type { ConferenceRoleJson } from './types.js';

/** Each status's mark and words; the colour only repeats them. */
const STATUS: Record<string, { mark: string; words: string }> = {
  answered: { mark: '✓', words: 'answered' },
  abstained: { mark: '–', words: 'abstained' },
  ungrounded: { mark: '!', words: 'ungrounded' },
};

/** An `Evidence:` line with each receipt it cites linked to that receipt's entry (an id no receipt has is marked, not linked). */
function EvidenceLine({ line, receipts }: { line: string; receipts: ReadonlySet<string> }) {
  return (
    <span class="role-evidence">
      {evidencePieces(line).map((piece, i) => {
        if ('text' in piece) return piece.text;
        const anchor = receiptAnchor(piece.receipt);
        return anchor && receipts.has(piece.receipt) ? (
          <a key={i} href={`#${anchor}`} class="receipt-link">
            {piece.receipt}
          </a>
        ) : (
          <code key={i} class="receipt-unknown" title="no receipt of this conference has this id">
            {piece.receipt}
          </code>
        );
      })}
    </span>
  );
}

/**
 * The reply as text, its `Evidence:` line (where the reply has it) with the
 * receipts linked; an evidence line the reply does not hold comes after it.
 */
function Reply({ role, receipts }: { role: ConferenceRoleJson; receipts: ReadonlySet<string> }) {
  const line = role.evidence_line;
  const at = line ? role.reply.lastIndexOf(line) : -1;
  if (!line || at < 0) {
    return (
      <>
        <p class="role-reply">{role.reply}</p>
        {line && (
          <p>
            <EvidenceLine line={line} receipts={receipts} />
          </p>
        )}
      </>
    );
  }
  return (
    <p class="role-reply">
      {role.reply.slice(0, at)}
      <EvidenceLine line={line} receipts={receipts} />
      {role.reply.slice(at + line.length)}
    </p>
  );
}

/**
 * A role's card: its name, tier and status, its reply (as text), its
 * evidence line with links to the receipts, why it abstained or is
 * ungrounded, and the replies that were sent back (folded).
 */
export function RoleCard({ role, receipts }: { role: ConferenceRoleJson; receipts: ReadonlySet<string> }) {
  const status = STATUS[role.status] ?? { mark: '?', words: String(role.status) };
  const kind = role.status in STATUS ? role.status : 'unknown';
  const rejections = role.rejections ?? [];
  return (
    <li class={`role-card role-${kind}`} data-testid="role-card" data-status={role.status}>
      <p class="role-head">
        <strong class="role-name">{role.role}</strong> <span class="role-tier">{role.tier}</span>{' '}
        <span class={`role-status role-status-${kind}`}>
          <span aria-hidden="true">{status.mark} </span>
          {status.words}
        </span>
      </p>
      <Reply role={role} receipts={receipts} />
      {role.reason && (
        <p class="role-reason">
          <span class="role-label">{role.status === 'abstained' ? 'Why it abstained: ' : 'Why: '}</span>
          {role.reason}
        </p>
      )}
      {rejections.length > 0 && (
        <details class="role-rejections">
          <summary>
            {rejections.length} {rejections.length === 1 ? 'reply' : 'replies'} sent back
          </summary>
          <ol>
            {rejections.map((r, i) => (
              <li key={i}>
                <p class="role-reply">{r.reply}</p>
                <p class="role-reason">
                  <span class="role-label">Sent back: </span>
                  {r.reason}
                </p>
              </li>
            ))}
          </ol>
        </details>
      )}
    </li>
  );
}
