import type { JsonValue } from '../../engine/outcome.js';
import type { TokenUsage } from '../../engine/usage.js';
import { usageFromFile, usageToFile } from '../../engine/usage.js';
import type { EvidenceRule, RoleStatus, RoleTier } from './conference-types.js';

/** An answer sent back for its evidence. */
export interface Rejection {
  reply: string;
  reason: string;
}

/** How one role's part in a conference ended. */
export interface RoleRecord {
  role: string;
  tier: RoleTier;
  evidenceRule: EvidenceRule;
  model?: string;
  status: RoleStatus;
  /** Its final reply, whole. */
  reply: string;
  /** The accepted `Evidence:` line (answered roles). */
  evidenceLine?: string;
  /** Why it abstained (if it said) or why it is ungrounded. */
  reason?: string;
  rejections: Rejection[];
  calls: number;
  usage?: TokenUsage;
  durationMs: number;
}

/** A role record as `conference.json` (and the checkpoint's progress) hold it: snake_case. */
export function roleRecordToJson(r: RoleRecord): { [key: string]: JsonValue } {
  return {
    role: r.role,
    tier: r.tier,
    evidence_rule: r.evidenceRule,
    ...(r.model ? { model: r.model } : {}),
    status: r.status,
    reply: r.reply,
    ...(r.evidenceLine ? { evidence_line: r.evidenceLine } : {}),
    ...(r.reason ? { reason: r.reason } : {}),
    rejections: r.rejections.map((x) => ({ reply: x.reply, reason: x.reason })),
    calls: r.calls,
    ...(r.usage ? { usage: usageToFile(r.usage) } : {}),
    duration_ms: Math.round(r.durationMs),
  };
}

/** A role record read back from {@link roleRecordToJson}'s form; `undefined` when it is not one. */
export function roleRecordFromJson(value: unknown): RoleRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.role !== 'string' || typeof v.reply !== 'string' || !['answered', 'abstained', 'ungrounded'].includes(v.status as string)) return undefined;
  const usage = v.usage as { input_tokens: number; output_tokens: number; total_tokens: number } | undefined;
  return {
    role: v.role,
    tier: v.tier as RoleTier,
    evidenceRule: v.evidence_rule as EvidenceRule,
    ...(typeof v.model === 'string' ? { model: v.model } : {}),
    status: v.status as RoleStatus,
    reply: v.reply,
    ...(typeof v.evidence_line === 'string' ? { evidenceLine: v.evidence_line } : {}),
    ...(typeof v.reason === 'string' ? { reason: v.reason } : {}),
    rejections: Array.isArray(v.rejections) ? (v.rejections as Rejection[]) : [],
    calls: typeof v.calls === 'number' ? v.calls : 0,
    ...(usage ? { usage: usageFromFile(usage) } : {}),
    durationMs: typeof v.duration_ms === 'number' ? v.duration_ms : 0,
  };
}
