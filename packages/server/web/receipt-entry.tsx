import { useEffect, useRef, useState } from 'preact/hooks';
import { receiptAnchor } from './receipt-links.js';
import type { ReceiptJson } from './types.js';

/** A tool call's arguments on one line: `path: "canon.md", pattern: "brother"`. */
function argumentsText(args: Record<string, unknown>): string {
  const entries = Object.entries(args ?? {});
  return entries.length === 0 ? 'no arguments' : entries.map(([key, value]) => `${key}: ${JSON.stringify(value)}`).join(', ');
}

/** Whether the page's address points at `anchor` (`#rcpt_…`). */
function targeted(anchor: string | undefined): boolean {
  return anchor !== undefined && location.hash === `#${anchor}`;
}

/**
 * One receipt of a conference's chief: its id (the entry's element id, so
 * an `Evidence:` line links to it), the tool and its arguments, and the
 * payload, folded. Following a link to it unfolds the payload.
 */
export function ReceiptEntry({ receipt }: { receipt: ReceiptJson }) {
  const anchor = receiptAnchor(receipt.receipt_id);
  const [open, setOpen] = useState(() => targeted(anchor));
  const entry = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (targeted(anchor)) entry.current?.scrollIntoView({ block: 'start' }); // a link to it opened the page
    const follow = () => {
      if (targeted(anchor)) setOpen(true);
    };
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, [anchor]);
  return (
    <li id={anchor} ref={entry} class="receipt" tabIndex={-1} data-testid="receipt">
      <p class="receipt-head">
        <code class="receipt-id">{receipt.receipt_id}</code> <strong class="receipt-tool">{receipt.tool}</strong>{' '}
        <span class="receipt-args">{argumentsText(receipt.arguments)}</span>
        {receipt.status !== 'ok' && <span class="receipt-status"> ({receipt.status})</span>}
      </p>
      <details class="receipt-payload" open={open} onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
        <summary>Payload ({receipt.payload.length} characters)</summary>
        <pre>{receipt.payload}</pre>
      </details>
    </li>
  );
}
