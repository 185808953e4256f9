import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ConferenceTemplateName, EvidenceRule } from './conference-types.js';

/** The directory next to a pipeline whose `<name>.md` files replace the built-in templates. */
export const TEMPLATE_DIRECTORY = 'conference';

/** The question and the chief's evidence, as every role's prompt opens (after its first line). */
const QUESTION_AND_EVIDENCE = ['', 'Question:', '{{question}}', '', 'Evidence the chief gathered (tool results, each with its receipt id):', '{{evidence}}', ''];

const ABSTAIN_RULE = 'If the question is outside your role, or the evidence does not let you answer it, reply with a first line of exactly ABSTAIN and, if you like, the reason on the next line.';

/**
 * The built-in prompts of phase 2, one per template name. Placeholders:
 * `{{role}}`, `{{question}}`, `{{evidence}}` (the chief's tool results with
 * their receipt ids), `{{evidence_rule}}` (what this role's Evidence: line
 * must cite), `{{finding}}` (T1's second step), `{{reason}}` (why an answer
 * was sent back).
 */
export const BUILT_IN_TEMPLATES: Readonly<Record<ConferenceTemplateName, string>> = {
  't1-triage': [
    'You take part in a conference as the {{role}}.',
    ...QUESTION_AND_EVIDENCE,
    'Can you, as the {{role}}, answer this question from this evidence? Reply with one word: RELEVANT or ABSTAIN.',
  ].join('\n'),
  't1-finding': [
    'You take part in a conference as the {{role}}.',
    ...QUESTION_AND_EVIDENCE,
    'State your one most important finding, as the {{role}}, in one or two sentences. No preamble.',
  ].join('\n'),
  't1-evidence': [
    'Evidence the chief gathered (tool results, each with its receipt id):',
    '{{evidence}}',
    '',
    'Your finding: {{finding}}',
    '',
    'Write one line that starts with "Evidence:" and {{evidence_rule}} Reply with that line only.',
  ].join('\n'),
  t3: [
    'You take part in a conference as the {{role}}. Every role sees the same evidence; no role sees another\'s answer.',
    ...QUESTION_AND_EVIDENCE,
    'Answer from your role\'s perspective, briefly. ' + ABSTAIN_RULE,
    'Otherwise end your answer with exactly one line that starts with "Evidence:" and {{evidence_rule}}',
  ].join('\n'),
  t5: [
    'You take part in a conference as the {{role}}. Every role sees the same evidence; no role sees another\'s answer.',
    ...QUESTION_AND_EVIDENCE,
    'Give a considered answer from your role\'s perspective: what you find, why it matters, what you would change. ' + ABSTAIN_RULE,
    'You may add a section that starts with a line "Extra insight:" for something the question did not ask but the evidence shows.',
    'End your answer with exactly one line that starts with "Evidence:" and {{evidence_rule}}',
  ].join('\n'),
  retry: [
    'Your answer was not accepted: {{reason}}',
    '',
    'Answer the same question again. End with exactly one line that starts with "Evidence:" and {{evidence_rule}} ' + ABSTAIN_RULE,
  ].join('\n'),
};

/** What an Evidence: line of a role with this rule must do, for `{{evidence_rule}}`. */
export const EVIDENCE_RULE_TEXT: Readonly<Record<EvidenceRule, string>> = {
  receipt: 'cites the receipt your answer rests on, as receipt_id: rcpt_… (copy the id from the evidence).',
  quote: 'quotes the passage your answer rests on, as "exact words" (path/of/file), or names it as path/of/file:line.',
  any: 'cites what your answer rests on: a receipt (receipt_id: rcpt_…) or a quoted passage ("exact words" (path/of/file) or path/of/file:line).',
  none: 'says what your answer rests on.',
};

/** Fills `{{name}}` placeholders (unknown ones stay as written). */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? (values[name] as string) : whole));
}

/**
 * The templates a conference uses: the built-in ones, replaced by those the
 * configuration gives (`configured`), replaced by `conference/<name>.md`
 * files next to the pipeline (`sourceFile`), the most specific last.
 */
export function conferenceTemplates(sourceFile: string | undefined, configured: Partial<Record<ConferenceTemplateName, string>> = {}): Record<ConferenceTemplateName, string> {
  const templates: Record<ConferenceTemplateName, string> = { ...BUILT_IN_TEMPLATES, ...configured };
  if (sourceFile) {
    for (const name of Object.keys(BUILT_IN_TEMPLATES) as ConferenceTemplateName[]) {
      try {
        templates[name] = readFileSync(join(dirname(sourceFile), TEMPLATE_DIRECTORY, `${name}.md`), 'utf8');
      } catch {
        // none there: the configured or built-in one stays
      }
    }
  }
  return templates;
}
