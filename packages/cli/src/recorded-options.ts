import { resolve } from 'node:path';
import type { RecordedRunOptions } from '@orchestra/core';
import { RecordedRunOptionsSchema, type INTERVIEWER_MODES } from '@orchestra/core/store';
import { phasedModeOf, type RunFlags } from './run-flags.js';

export type { RecordedRunOptions } from '@orchestra/core';
export { INTERVIEWER_MODES, RecordedRunOptionsSchema } from '@orchestra/core/store';

function interviewerMode(flags: RunFlags): (typeof INTERVIEWER_MODES)[number] {
  if (flags.autoApprove) return 'auto-approve';
  if (flags.answers) return 'answers';
  if (flags.park) return 'park';
  return 'console';
}

/** What `run` records of its flags. */
export function recordRunOptions(flags: RunFlags): RecordedRunOptions {
  return {
    ...(flags.simulate ? { simulate: true } : {}),
    interviewer: interviewerMode(flags),
    ...(flags.answers ? { answers: resolve(flags.answers) } : {}),
    ...(flags.model ? { model: flags.model } : {}),
    ...(flags.baseUrl ? { base_url: flags.baseUrl } : {}),
    ...(flags.backend ? { backend: flags.backend } : {}),
    phased_mode: phasedModeOf(flags),
  };
}

/**
 * The flags a resume runs with: those recorded when the run started, each
 * replaced by the flag given now (the interviewer flags as one: any of
 * `--auto-approve`, `--answers`, `--park` replaces the recorded way of
 * answering). `restored` lists what came from the record, for the message.
 */
export function withRecordedOptions(recorded: unknown, flags: RunFlags): { flags: RunFlags; restored: string[] } {
  const parsed = RecordedRunOptionsSchema.safeParse(recorded ?? {});
  if (!parsed.success) return { flags, restored: [] };
  const r = parsed.data;
  const out: RunFlags = { ...flags };
  const restored: string[] = [];
  if (r.simulate && flags.simulate === undefined && !flags.model && !flags.baseUrl && !flags.backend) {
    out.simulate = true;
    restored.push('--simulate');
  }
  const take = (flag: string, apply: () => void) => {
    apply();
    restored.push(flag);
  };
  if (!flags.simulate) {
    if (r.model && flags.model === undefined) take(`--model ${r.model}`, () => (out.model = r.model));
    if (r.base_url && flags.baseUrl === undefined) take(`--base-url ${r.base_url}`, () => (out.baseUrl = r.base_url));
    if (r.backend && flags.backend === undefined) take(`--backend ${r.backend}`, () => (out.backend = r.backend));
  }
  if (r.phased_mode && flags.interactive === undefined) {
    // A conversation under way must not turn into a direct run, nor the reverse.
    out.interactive = r.phased_mode === 'interactive';
    if (out.interactive) restored.push('--interactive');
  }
  if (!flags.autoApprove && !flags.answers && !flags.park) {
    if (r.interviewer === 'auto-approve') take('--auto-approve', () => (out.autoApprove = true));
    if (r.interviewer === 'answers' && r.answers) take(`--answers ${r.answers}`, () => (out.answers = r.answers));
    if (r.interviewer === 'park') take('--park', () => (out.park = true));
  }
  return { flags: out, restored };
}
