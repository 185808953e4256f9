import { describe, expect, it } from 'vitest';
import { conferenceStages } from '../web/conference-stages.js';
import { evidencePieces, receiptAnchor } from '../web/receipt-links.js';
import type { StreamEvent } from '../web/types.js';

const ev = (type: string, data: Record<string, unknown>): StreamEvent => ({ type, data: { type, ...data } });

describe("the page's reading of conference events", () => {
  it('finds conference stages by handler type or role events, and counts what should refresh each', () => {
    const stages = conferenceStages([
      ev('stage.started', { nodeId: 'draft', handlerType: 'codergen' }),
      ev('stage.completed', { nodeId: 'draft' }),
      ev('stage.started', { nodeId: 'review', handlerType: 'conference' }),
      ev('conference.role.started', { nodeId: 'review', role: 'critic', tier: 'T3' }),
      ev('conference.role.started', { nodeId: 'review', role: 'editor', tier: 'T5' }),
      ev('conference.role.rejected', { nodeId: 'review', role: 'editor', reason: 'no Evidence: line', final: false }),
      ev('conference.role.completed', { nodeId: 'review', role: 'editor', status: 'ungrounded' }),
      ev('conference.role.completed', { nodeId: 'other', role: 'critic', status: 'answered' }),
      ev('stage.completed', { nodeId: 'review' }),
    ]);
    expect(stages).toEqual([
      { nodeId: 'review', updates: 2, roles: [{ role: 'critic', tier: 'T3', status: null }, { role: 'editor', tier: 'T5', status: 'ungrounded' }] },
      { nodeId: 'other', updates: 1, roles: [{ role: 'critic', tier: '', status: 'answered' }] },
    ]);
  });

  it('starts the roles afresh on a new visit of the stage', () => {
    const [stage] = conferenceStages([
      ev('stage.started', { nodeId: 'review', handlerType: 'conference' }),
      ev('conference.role.started', { nodeId: 'review', role: 'critic', tier: 'T3' }),
      ev('conference.role.completed', { nodeId: 'review', role: 'critic', status: 'answered' }),
      ev('stage.failed', { nodeId: 'review' }),
      ev('stage.started', { nodeId: 'review', handlerType: 'conference', attempt: 2 }),
    ]);
    expect(stage).toEqual({ nodeId: 'review', updates: 2, roles: [] });
  });

  it('splits an Evidence: line into text and receipt ids; only receipt-like ids become anchors', () => {
    expect(evidencePieces('Evidence: receipt_id: rcpt_3f9a0c1b2d4e5f60, rcpt_8b1d2e3f4a5b6c7d; canon.md "dead"')).toEqual([
      { text: 'Evidence: receipt_id: ' },
      { receipt: 'rcpt_3f9a0c1b2d4e5f60' },
      { text: ', ' },
      { receipt: 'rcpt_8b1d2e3f4a5b6c7d' },
      { text: '; canon.md "dead"' },
    ]);
    expect(evidencePieces('Evidence: quote "x"')).toEqual([{ text: 'Evidence: quote "x"' }]);
    expect(receiptAnchor('rcpt_3f9a0c1b2d4e5f60')).toBe('rcpt_3f9a0c1b2d4e5f60');
    for (const id of ['document', 'rcpt_', 'rcpt_a b', 'rcpt_<x>', `rcpt_${'a'.repeat(65)}`]) expect(receiptAnchor(id), id).toBeUndefined();
  });
});
