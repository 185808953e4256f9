import type { JsonValue } from '@orchestra/core';
import type { SlotValue } from '../slots.js';

/** Most characters of one slot's data written into a prompt by `{{data.<slot>}}`. */
export const MAX_DATA_CHARS = 12_000;

function dataText(data: JsonValue): string {
  const text = typeof data === 'string' ? data : JSON.stringify(data, null, 2);
  return text.length > MAX_DATA_CHARS ? `${text.slice(0, MAX_DATA_CHARS)}\n… (${text.length - MAX_DATA_CHARS} more characters)` : text;
}

/**
 * A phase-B prompt from its template and nothing else: `{{task}}`,
 * `{{role}}`, `{{inputs}}` (each input slot's summary, under its name),
 * `{{input.<slot>}}` (one slot's summary) and `{{data.<slot>}}` (one slot's
 * data). The agent never sees the recipe, other tasks or a plan.
 */
export function renderAgentPrompt(template: string, values: { task: string; role: string; inputs: ReadonlyMap<string, SlotValue | undefined> }): string {
  const summary = (name: string): string => {
    const slot = values.inputs.get(name);
    if (!slot) return '(not available)';
    if (slot.data === null) return '(empty: the step that fills it was skipped)';
    return slot.summary || (typeof slot.data === 'string' ? slot.data : JSON.stringify(slot.data));
  };
  const inputs = [...values.inputs.keys()].map((name) => `## ${name}\n${summary(name)}`).join('\n\n') || '(no inputs)';
  return template.replace(/\{\{([\w.]+)\}\}/g, (whole, key: string) => {
    if (key === 'task') return values.task;
    if (key === 'role') return values.role;
    if (key === 'inputs') return inputs;
    if (key.startsWith('input.') && values.inputs.has(key.slice(6))) return summary(key.slice(6));
    if (key.startsWith('data.') && values.inputs.has(key.slice(5))) {
      const slot = values.inputs.get(key.slice(5));
      return slot ? dataText(slot.data) : '(not available)';
    }
    return whole;
  });
}

/** The data an agent's reply gives its slot: a JSON object or list when the reply is one (or holds one in a ```json block), else the text. */
export function replyData(text: string): JsonValue {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)\n```/.exec(text);
  for (const candidate of [text.trim(), fenced?.[1]?.trim()]) {
    if (!candidate || !/^[[{]/.test(candidate)) continue;
    try {
      return JSON.parse(candidate) as JsonValue;
    } catch {
      // not JSON after all
    }
  }
  return text;
}

/** A reply's summary: its first non-empty line, at most 200 characters. */
export function replySummary(text: string): string {
  const line = text.split('\n').map((l) => l.trim()).find(Boolean) ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
