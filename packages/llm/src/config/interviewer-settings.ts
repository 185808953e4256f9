import { parseDuration } from '@orchestra/core/loader';
import type { LoadedConfig } from './load-config.js';

/** How human questions are answered. */
export interface InterviewerSettings {
  /** Approve every question without asking. */
  autoApprove: boolean;
  /** Default wait for an answer when a node sets no `human.timeout`; undefined: wait forever. */
  timeoutMs?: number;
}

/** The `interviewer` section with defaults (ask; no timeout). */
export function interviewerSettings(config: LoadedConfig): InterviewerSettings {
  const section = config.config.interviewer;
  const settings: InterviewerSettings = { autoApprove: section?.auto_approve ?? false };
  const timeout = section?.timeout === undefined ? undefined : parseDuration(section.timeout);
  if (timeout !== undefined) settings.timeoutMs = timeout;
  return settings;
}

/** The `chat` section with defaults: runs need approval unless `require_approval: false`. */
export function chatSettings(config: LoadedConfig): { requireApproval: boolean } {
  return { requireApproval: config.config.chat?.require_approval ?? true };
}
