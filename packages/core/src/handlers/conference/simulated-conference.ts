import { WORKSPACE_TOOL_NAMES } from '../../graph/workspace-tools.js';
import type { ConferenceBackend } from './conference-types.js';

const FIRST_RECEIPT = /rcpt_[A-Za-z0-9]+/;

/**
 * The fields of the JSON object a prompt shows as the answer's shape (the
 * first `{...}` after the word JSON), each with a stand-in of its kind:
 * `pass` (and any field shown as true or false) true, a list empty, an
 * object empty, anything else a simulated string. So a recipe's checks of
 * `.pass` or `.findings != null` hold in a simulated run.
 */
function simulatedFields(prompt: string): Record<string, unknown> {
  const start = prompt.indexOf('{', prompt.search(/\bJSON\b/));
  const fields: Record<string, unknown> = { pass: true };
  if (start < 0) return fields;
  let depth = 0;
  for (let i = start; i < prompt.length; i++) {
    const c = prompt[i];
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) break;
    } else if (c === '"' && depth === 1) {
      const m = /^"(\w+)"\s*:\s*(\S)/.exec(prompt.slice(i));
      if (m) fields[m[1] as string] = m[2] === '[' ? [] : m[2] === '{' ? {} : /^(true|false)/.test(prompt.slice(i + m[0].length - 1)) ? true : /^\d/.test(m[2] as string) ? 0 : '[Simulated]';
      const close = prompt.indexOf('"', i + 1);
      if (close > i) i = close;
    }
  }
  return fields;
}

/**
 * The conference side of the `--simulate` backend: every role named is a T3
 * role that must cite a receipt; the chief makes one simulated call of its
 * first allowed tool (no file is read) and gets its receipt; each role
 * answers with an `Evidence:` line citing that receipt. Other tool-less calls
 * (recipe agent steps) get a canned reply: a JSON object (`pass: true`) when
 * the prompt asks for JSON, else a line of text. Deterministic apart from
 * receipt ids and times.
 */
export const simulatedConference: ConferenceBackend = {
  roles: (names) => names.map((name) => ({ name, contract: `You are the ${name}.`, evidence: 'receipt', tier: 'T3', model: 'simulation' })),
  toolNames: () => WORKSPACE_TOOL_NAMES,
  async runChief(request) {
    const tool = request.tools[0] ?? 'list_files';
    const id = await request.receipt({ tool, arguments: { simulated: true }, status: 'ok', payload: `[Simulated] ${tool} result for conference ${request.node.id}` });
    request.report.toolCall({ tool, callId: 'simulated_1', status: 'ok', durationMs: 0, detail: 'simulated' });
    request.report.response({ model: 'simulation', durationMs: 0 });
    return { reply: `[Simulated] Evidence gathered for conference ${request.node.id}: receipt_id: ${id}`, model: 'simulation', calls: 1 };
  },
  async askRole(request) {
    const last = request.messages[request.messages.length - 1]?.content ?? '';
    const receipt = FIRST_RECEIPT.exec(last)?.[0];
    request.report.response({ model: 'simulation', durationMs: 0 });
    // A conference role cites the receipt it was shown; any other tool-less call (a recipe's agent step) gets a
    // canned reply: JSON when the prompt asks for JSON (so checks of `.pass` hold), else text.
    const text = receipt
      ? `[Simulated] The ${request.role.name}'s reading of the evidence for ${request.node.id}.\nEvidence: receipt_id: ${receipt}`
      : /\bJSON\b/.test(last)
        ? JSON.stringify({ ...simulatedFields(last), simulated: true, role: request.role.name, summary: `[Simulated] ${request.role.name} for ${request.node.id}` })
        : `[Simulated] ${request.role.name}'s work for ${request.node.id}.`;
    return { text, model: 'simulation' };
  },
  workspace: () => process.cwd(),
};
