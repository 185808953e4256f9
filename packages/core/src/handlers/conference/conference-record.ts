import type { JsonValue } from '../../engine/outcome.js';
import { usageToFile, type TokenUsage } from '../../engine/usage.js';
import type { Receipt } from './conference-types.js';
import { receiptToJson } from './receipts.js';
import { roleRecordToJson, type RoleRecord } from './role-record.js';

/** The stage files a conference writes besides `prompt.md` and `receipts.jsonl`. */
export const CONFERENCE_FILES = { json: 'conference.json', markdown: 'conference.md' } as const;

/** The `format` of `conference.json`. */
export const CONFERENCE_FORMAT = 'orchestra.conference/1';

/** How the chief's phase ended, as the conference keeps it. */
export interface ChiefRecord {
  reply: string;
  model: string;
  calls: number;
  usage?: TokenUsage;
  /** The receipts it issued, in order. */
  receipts: string[];
}

/** A finished conference: everything `conference.json` and `conference.md` show. */
export interface ConferenceRecord {
  nodeId: string;
  question: string;
  chief: ChiefRecord;
  evidence: readonly Receipt[];
  /** In the order of `conference.roles`. */
  roles: readonly RoleRecord[];
  quorum: number;
}

/** The number of roles that answered (grounded). */
export function answeredCount(record: Pick<ConferenceRecord, 'roles'>): number {
  return record.roles.filter((r) => r.status === 'answered').length;
}

/** `conference.json`. */
export function conferenceJson(record: ConferenceRecord): { [key: string]: JsonValue } {
  const answered = answeredCount(record);
  return {
    format: CONFERENCE_FORMAT,
    node_id: record.nodeId,
    question: record.question,
    chief: {
      model: record.chief.model,
      reply: record.chief.reply,
      calls: record.chief.calls,
      receipts: record.chief.receipts,
      ...(record.chief.usage ? { usage: usageToFile(record.chief.usage) } : {}),
    },
    evidence: record.evidence.map(receiptToJson),
    roles: record.roles.map(roleRecordToJson),
    quorum: record.quorum,
    answered,
    status: answered >= record.quorum ? 'success' : 'fail',
  };
}

function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}\n${text}\n${ticks}`;
}

/** `conference.md`: the question, the evidence with its receipts, each role's reply with its status. */
export function conferenceMarkdown(record: ConferenceRecord): string {
  const answered = answeredCount(record);
  const out: string[] = [`# Conference: ${record.nodeId}`, '', '## Question', '', record.question.trim(), '', '## Evidence', ''];
  if (record.evidence.length === 0) out.push('The chief called no tools.', '');
  for (const r of record.evidence) {
    out.push(`### ${r.receiptId}: ${r.tool} ${JSON.stringify(r.arguments)}`, '', `status ${r.status} · sha256 ${r.sha256} · ${r.at}`, '', fence(r.payload), '');
  }
  out.push('## Roles', '', `${answered} of ${record.roles.length} answered (quorum ${record.quorum}).`, '');
  for (const role of record.roles) {
    out.push(`### ${role.role} (${role.tier}): ${role.status}`, '');
    if (role.reason) out.push(`Reason: ${role.reason}`, '');
    out.push(fence(role.reply), '');
    for (const [i, x] of role.rejections.entries()) out.push(`Rejected answer ${i + 1}: ${x.reason}`, '');
  }
  out.push('## Chief', '', fence(record.chief.reply), '');
  return out.join('\n');
}
