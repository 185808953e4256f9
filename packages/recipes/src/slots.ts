import type { JsonValue, RunContext } from '@orchestra/core';

/** What a slot holds: the data, the receipt of the tool call that made it, a summary agents see, the role that wrote it. */
export interface SlotValue {
  data: JsonValue;
  receipt_id: string | null;
  summary: string;
  agent_id: string | null;
}

/** The context key a slot is kept under (`slots.<name>`), so it is checkpointed with the run. */
export function slotKey(name: string): string {
  return `slots.${name}`;
}

/** A slot's value from the run's context, if it was written (a skipped step leaves `data: null`). */
export function readSlot(context: Pick<RunContext, 'get'>, name: string): SlotValue | undefined {
  const value = context.get(slotKey(name)) as unknown;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  return { data: (v.data ?? null) as JsonValue, receipt_id: typeof v.receipt_id === 'string' ? v.receipt_id : null, summary: typeof v.summary === 'string' ? v.summary : '', agent_id: typeof v.agent_id === 'string' ? v.agent_id : null };
}

/** A slot value as context JSON. */
export function slotJson(value: SlotValue): JsonValue {
  return { data: value.data, receipt_id: value.receipt_id, summary: value.summary, agent_id: value.agent_id };
}
