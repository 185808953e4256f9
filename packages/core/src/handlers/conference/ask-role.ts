import { addUsage, type TokenUsage } from '../../engine/usage.js';
import type { ConferenceRole, ConferenceTemplateName, RoleCallRequest, RoleCallResult, RoleMessage } from './conference-types.js';
import { EVIDENCE_RULE_TEXT, fillTemplate } from './conference-templates.js';
import { checkEvidence, replyKind, type EvidenceSources } from './evidence-check.js';
import type { Rejection, RoleRecord } from './role-record.js';

/** What one role's turn needs. */
export interface RoleTurn {
  role: ConferenceRole;
  question: string;
  /** The chief's evidence as the roles see it. */
  evidence: string;
  templates: Readonly<Record<ConferenceTemplateName, string>>;
  sources: EvidenceSources;
  /** One tool-less call (the backend's `askRole`, with the node, signal and reporter filled in). */
  call(request: Pick<RoleCallRequest, 'role' | 'system' | 'messages'>): Promise<RoleCallResult>;
  /** An answer was sent back (`final`: it will not be asked again). */
  rejected(reason: string, final: boolean): void;
  now?: () => number;
}

/**
 * One role's part in phase 2: asks it (one call for T3 and T5; triage,
 * finding and evidence for T1), checks the answer's evidence, sends a
 * rejected answer back once with the reason, and records how it ended:
 * `answered`, `abstained` or `ungrounded`.
 */
export async function askRole(turn: RoleTurn): Promise<RoleRecord> {
  const now = turn.now ?? (() => performance.now());
  const started = now();
  const { role } = turn;
  let calls = 0;
  let usage: TokenUsage | undefined;
  let model: string | undefined;
  const values = { role: role.name, question: turn.question, evidence: turn.evidence, evidence_rule: EVIDENCE_RULE_TEXT[role.evidence] };
  const ask = async (messages: RoleMessage[]): Promise<string> => {
    const result = await turn.call({ role, system: role.contract, messages });
    calls += 1;
    usage = addUsage(usage, result.usage);
    model = result.model;
    return result.text;
  };
  const rejections: Rejection[] = [];
  const end = (fields: Pick<RoleRecord, 'status' | 'reply'> & Partial<RoleRecord>): RoleRecord => ({
    role: role.name,
    tier: role.tier,
    evidenceRule: role.evidence,
    ...((model ?? role.model) ? { model: model ?? role.model } : {}),
    rejections,
    calls,
    ...(usage ? { usage } : {}),
    durationMs: now() - started,
    ...fields,
  });
  const abstained = (reply: string, reason: string | undefined) => end({ status: 'abstained', reply, ...(reason ? { reason } : {}) });

  // The exchange whose last answer is judged, and how its answer becomes the role's reply.
  let messages: RoleMessage[];
  let compose: (text: string) => string = (text) => text;
  if (role.tier === 'T1') {
    const triage = await ask([{ role: 'user', content: fillTemplate(turn.templates['t1-triage'], values) }]);
    const kind = replyKind(triage.trim().toUpperCase().startsWith('ABSTAIN') ? `ABSTAIN\n${triage.trim().slice('ABSTAIN'.length).replace(/^[\s:.,-]+/, '')}` : triage);
    if (kind.abstain) return abstained(triage, kind.reason);
    const finding = (await ask([{ role: 'user', content: fillTemplate(turn.templates['t1-finding'], values) }])).trim();
    messages = [{ role: 'user', content: fillTemplate(turn.templates['t1-evidence'], { ...values, finding }) }];
    compose = (text) => `${finding}\n\n${text.trim()}`;
  } else {
    messages = [{ role: 'user', content: fillTemplate(turn.templates[role.tier === 'T5' ? 't5' : 't3'], values) }];
  }

  for (let attempt = 1; ; attempt++) {
    const text = await ask(messages);
    const kind = replyKind(text);
    if (kind.abstain) return abstained(text, kind.reason);
    const reply = compose(text);
    const verdict = checkEvidence(reply, role.evidence, turn.sources);
    if (verdict.grounded) return end({ status: 'answered', reply, evidenceLine: verdict.line });
    rejections.push({ reply, reason: verdict.reason });
    const final = attempt >= 2;
    turn.rejected(verdict.reason, final);
    if (final) return end({ status: 'ungrounded', reply, reason: verdict.reason });
    messages = [...messages, { role: 'assistant', content: text }, { role: 'user', content: fillTemplate(turn.templates.retry, { ...values, reason: verdict.reason }) }];
  }
}
