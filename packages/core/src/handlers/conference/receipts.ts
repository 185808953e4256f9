import { createHash, randomBytes } from 'node:crypto';
import type { JsonValue } from '../../engine/outcome.js';
import type { StageStore } from '../../engine/store/run-store.js';
import type { Receipt, ToolResult } from './conference-types.js';

/** The stage file holding a conference's receipts, one JSON line each. */
export const RECEIPTS_FILE = 'receipts.jsonl';

/** A receipt id as it may be cited: `rcpt_` and letters, digits or `_` (a made-up one included, to be refused). */
export const RECEIPT_ID = /\brcpt_\w+/g;

/** A new receipt id: `rcpt_` and 64 random bits, so a model cannot cite one it was not shown. */
export function newReceiptId(): string {
  return `rcpt_${randomBytes(8).toString('hex')}`;
}

/** A receipt as its `receipts.jsonl` line records it (snake_case). */
export function receiptToJson(receipt: Receipt): { [key: string]: JsonValue } {
  return { receipt_id: receipt.receiptId, tool: receipt.tool, arguments: receipt.arguments, status: receipt.status, payload: receipt.payload, sha256: receipt.sha256, at: receipt.at };
}

function receiptFromJson(value: unknown): Receipt | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const r = value as Record<string, unknown>;
  if (typeof r.receipt_id !== 'string' || typeof r.tool !== 'string' || typeof r.payload !== 'string') return undefined;
  return {
    receiptId: r.receipt_id,
    tool: r.tool,
    arguments: (r.arguments ?? null) as JsonValue,
    status: typeof r.status === 'string' ? r.status : 'ok',
    payload: r.payload,
    sha256: typeof r.sha256 === 'string' ? r.sha256 : sha256(r.payload),
    at: typeof r.at === 'string' ? r.at : '',
  };
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The receipts of one conference stage: each tool call of the chief is
 * written to `receipts.jsonl` (the whole file, so no half line is left)
 * before its id goes back to the model.
 */
export class ReceiptBook {
  private readonly receipts: Receipt[];

  private constructor(
    private readonly stage: StageStore,
    earlier: Receipt[],
  ) {
    this.receipts = earlier;
  }

  /** The book of a stage, with the receipts an earlier attempt wrote. */
  static async open(stage: StageStore): Promise<ReceiptBook> {
    const text = (await stage.read(RECEIPTS_FILE)) ?? '';
    const earlier: Receipt[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const receipt = receiptFromJson(JSON.parse(line));
        if (receipt) earlier.push(receipt);
      } catch {
        // a damaged line: that receipt is gone, the others stand
      }
    }
    return new ReceiptBook(stage, earlier);
  }

  /** Records a tool call and gives its receipt. */
  async issue(result: ToolResult, now: Date = new Date()): Promise<Receipt> {
    const receipt: Receipt = { receiptId: newReceiptId(), tool: result.tool, arguments: result.arguments, status: result.status, payload: result.payload, sha256: sha256(result.payload), at: now.toISOString() };
    this.receipts.push(receipt);
    await this.stage.write(RECEIPTS_FILE, this.receipts.map((r) => `${JSON.stringify(receiptToJson(r))}\n`).join(''));
    return receipt;
  }

  /** The receipts with these ids, in the order given (unknown ids skipped). */
  select(ids: readonly string[]): Receipt[] {
    const byId = new Map(this.receipts.map((r) => [r.receiptId, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }
}
