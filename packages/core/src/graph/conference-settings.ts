import type { GraphNode } from './model.js';
import { booleanAttr, integerAttr } from './values.js';

/** What a role's `Evidence:` line must cite: a tool receipt, a quoted file passage, either, or nothing. */
export const EVIDENCE_RULES = ['receipt', 'quote', 'any', 'none'] as const;
/** One of {@link EVIDENCE_RULES}. */
export type EvidenceRule = (typeof EVIDENCE_RULES)[number];

/** A role's tier: how its answer is asked for (T1 three tiny calls, T3 one call, T5 one richer call). */
export const ROLE_TIERS = ['T1', 'T3', 'T5'] as const;
/** One of {@link ROLE_TIERS}. */
export type RoleTier = (typeof ROLE_TIERS)[number];

/** Names of the prompt templates of phase 2 (files `<name>.md`). */
export const CONFERENCE_TEMPLATE_NAMES = ['t1-triage', 't1-finding', 't1-evidence', 't3', 't5', 'retry'] as const;
/** One of {@link CONFERENCE_TEMPLATE_NAMES}. */
export type ConferenceTemplateName = (typeof CONFERENCE_TEMPLATE_NAMES)[number];

/** The handler type of conference nodes. */
export const CONFERENCE_TYPE = 'conference';

/** The chief's tools when `conference.tools` is not set: reading only. */
export const DEFAULT_CHIEF_TOOLS: readonly string[] = ['read_file', 'list_files', 'search_text'];

/** Most model calls of the chief when `conference.max_chief_turns` is not set. */
export const DEFAULT_MAX_CHIEF_TURNS = 8;

/** A conference node's settings, read from its attributes. */
export interface ConferenceSettings {
  roles: string[];
  tools: string[];
  requireTool: boolean;
  maxChiefTurns: number;
  quorum: number;
}

/** A comma-separated list, trimmed, empty items dropped, duplicates kept once. */
export function listAttribute(text: string | undefined): string[] {
  return [...new Set((text ?? '').split(',').map((item) => item.trim()).filter(Boolean))];
}

/** A conference node's settings (defaults filled in); {@link conferenceSettingsProblem} says what is wrong with them. */
export function conferenceSettings(node: GraphNode): ConferenceSettings {
  const tools = node.attributes['conference.tools'];
  return {
    roles: listAttribute(node.attributes['conference.roles']),
    tools: tools === undefined ? [...DEFAULT_CHIEF_TOOLS] : listAttribute(tools),
    requireTool: booleanAttr(node, 'conference.require_tool', true),
    maxChiefTurns: integerAttr(node, 'conference.max_chief_turns', DEFAULT_MAX_CHIEF_TURNS),
    quorum: integerAttr(node, 'conference.quorum', 1),
  };
}

/**
 * What makes a conference node unusable on its own (before any
 * configuration is consulted): no roles, a quorum below 1 or above the
 * number of roles, no chief turns. `knownTools`, when given, also checks
 * `conference.tools`.
 */
export function conferenceSettingsProblem(node: GraphNode, knownTools?: readonly string[]): string | undefined {
  const s = conferenceSettings(node);
  if (s.roles.length === 0) return `conference node ${node.id} names no roles: set conference.roles="critic,editor" (roles are defined under roles: in orchestra.yaml)`;
  if (s.quorum < 1) return `conference node ${node.id}: conference.quorum must be at least 1`;
  if (s.quorum > s.roles.length) return `conference node ${node.id}: conference.quorum=${s.quorum} is more than its ${s.roles.length} role${s.roles.length === 1 ? '' : 's'} (${s.roles.join(', ')}) could ever answer`;
  if (s.maxChiefTurns < 1) return `conference node ${node.id}: conference.max_chief_turns must be at least 1`;
  if (s.requireTool && s.tools.length === 0) return `conference node ${node.id} requires a tool call (conference.require_tool) but conference.tools allows none`;
  if (knownTools) {
    const unknown = s.tools.filter((t) => !knownTools.includes(t));
    if (unknown.length) return `conference node ${node.id}: conference.tools names ${unknown.map((t) => JSON.stringify(t)).join(', ')}, which ${unknown.length === 1 ? 'is no tool' : 'are no tools'}; the tools are: ${knownTools.join(', ')}`;
  }
  return undefined;
}
