import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { TokenUsage } from '@orchestra/core';
import { addUsage } from '@orchestra/core/store';
import { issuesBySection, sectionSchema, sectionToolName } from './artifact-sections.js';
import type { ArtifactSchema } from './artifact-schema.js';
import { DEFAULT_VALIDATION_RETRIES, SerializeError, fatalVerdictError, finalizationToolName, issueSummary, serializeArtifact, type SerializeAttempt, type SerializeOptions, type SerializeResult } from './serialize.js';
import { validateArtifact } from './validate-artifact.js';
import { validationFeedback, type ValidationFeedback } from './validation-feedback.js';

/** A failed call of a section's tool, kept so that a resumed node can replay it. */
export interface SectionCall {
  args: unknown;
  feedback: ValidationFeedback;
}

/**
 * How far a section-wise Serialize got (node progress): the sections
 * accepted so far, the sections the whole artifact's checks sent back, and
 * the failed calls of the section under way.
 */
export interface SectionsProgress {
  /** Each accepted section's value, by section. */
  accepted: Record<string, unknown>;
  /** Sections to serialize again, with what the checks of the whole artifact found in each. */
  redo?: Record<string, ValidationFeedback>;
  /** The section being serialized and its failed calls so far. */
  current?: { section: string; calls: SectionCall[] };
  /** Failed validations so far (section calls and checks of the whole artifact): each costs one of `validationRetries`. */
  failures: number;
  /** Calls of the section tools so far. */
  calls: number;
}

/** What a section-wise Serialize needs: {@link SerializeOptions} with the sections, less the conversation (each section call starts its own). */
export interface SerializeSectionsOptions extends Omit<SerializeOptions, 'messages' | 'toolDescription' | 'onAttempt'> {
  /** Top-level properties of the output schema, in the order they are serialized (`output.sections`). */
  sections: readonly string[];
  /** The system prompt of every section call. */
  system: string;
  /** What every section call's message starts with: the task and the brief. */
  task: string;
  /** Where an earlier run of this Serialize got to (a resumed node). */
  progress?: SectionsProgress;
  /** Called whenever the progress changes, before the next call: where a node keeps it. */
  onProgress?: (progress: SectionsProgress) => void | Promise<void>;
  /** Called after each call of a section tool is judged (against the section's schema). */
  onAttempt?: (attempt: SerializeAttempt & { section: string }) => void | Promise<void>;
}

/** The message a section call starts with: the task and brief, the sections already fixed, and which section to submit. */
export function sectionPrompt(task: string, sections: readonly string[], section: string, fixed: Readonly<Record<string, unknown>>, tool: string): string {
  const others = Object.keys(fixed).length > 0
    ? `The sections already fixed (keep to them, and use their identifiers; do not repeat them):\n\`\`\`json\n${JSON.stringify(fixed, null, 2)}\n\`\`\``
    : 'No section is fixed yet.';
  return `${task}\n\nThe result is submitted one section at a time, in this order: ${sections.join(', ')}. This call is for the section ${JSON.stringify(section)} only.\n\n${others}\n\nCall ${tool} with the ${section} section.`;
}

function fresh(progress: SectionsProgress | undefined): SectionsProgress {
  return progress ? (JSON.parse(JSON.stringify(progress)) as SectionsProgress) : { accepted: {}, failures: 0, calls: 0 };
}

/**
 * Serialize in sections (`output.sections`). Each section is submitted
 * with a tool of its own (`<tool>_<section>`, parameters: that one
 * property), in a fresh conversation that shows the sections already
 * accepted as fixed context; its arguments are checked against the
 * section's schema and retried with feedback as in {@link serializeArtifact}.
 * Once every section is in, the whole artifact is checked (schema, declared
 * checks, validators). A fatal finding ends it; other findings are sorted
 * by section (the top-level property of each finding's field; a finding
 * that names none goes to every section) and only the sections at fault are
 * serialized again, each shown its earlier value and the findings as the
 * result of that call. Every failed validation, of a section call or of the
 * whole artifact, costs one of `validationRetries`; past that it ends with
 * `ORCH_ARTIFACT_INVALID`. `attempts` in the result counts the section calls.
 */
export async function serializeSections(options: SerializeSectionsOptions): Promise<SerializeResult> {
  const { nodeId, sections, rules } = options;
  const toolName = options.toolName ?? finalizationToolName(nodeId);
  const retries = options.validationRetries ?? DEFAULT_VALIDATION_RETRIES;
  const progress = fresh(options.progress);
  const schemas = new Map<string, ArtifactSchema>(sections.map((s) => [s, sectionSchema(rules.schema, s)]));
  const save = async () => options.onProgress?.(progress);
  let usage: TokenUsage | undefined;

  const outOfRetries = (what: string, issues: ValidationFeedback['issues']) =>
    new SerializeError('ORCH_ARTIFACT_INVALID', `${nodeId}: the output was still invalid after ${progress.failures} failed validations in ${progress.calls} calls of the section tools of ${toolName} (validation_retries=${retries}): ${what}: ${issueSummary(issues)}`, issues);

  const serializeOne = async (section: string): Promise<void> => {
    const tool = sectionToolName(toolName, section);
    const fixed = Object.fromEntries(sections.filter((s) => s !== section && Object.hasOwn(progress.accepted, s)).map((s) => [s, progress.accepted[s]]));
    const messages: BaseMessage[] = [new SystemMessage(options.system), new HumanMessage(sectionPrompt(options.task, sections, section, fixed, tool))];
    const replay = (id: string, args: unknown, feedback: ValidationFeedback) =>
      messages.push(new AIMessage({ content: '', tool_calls: [{ id, name: tool, args: (args ?? {}) as Record<string, unknown> }] }), new ToolMessage({ content: JSON.stringify(feedback), tool_call_id: id, name: tool }));
    // A section sent back: its earlier value as the model's call, the whole artifact's findings as the result.
    const redo = progress.redo?.[section];
    if (redo) replay(`${tool}_0`, { [section]: progress.accepted[section] }, redo);
    const earlier = progress.current?.section === section ? progress.current.calls : [];
    earlier.forEach((c, i) => replay(`${tool}_${i + 1}`, c.args, c.feedback));
    progress.current = { section, calls: earlier };
    let result: SerializeResult;
    try {
      result = await serializeArtifact({
        nodeId,
        model: options.model,
        modelName: options.modelName,
        price: options.price,
        messages,
        rules: { schema: schemas.get(section) as ArtifactSchema },
        context: options.context,
        toolName: tool,
        toolDescription: `Submit the ${section} section of the ${nodeId} result (one of its sections: ${sections.join(', ')}). Call it exactly once, with every field of the section.`,
        validationRetries: retries - progress.failures,
        signal: options.signal,
        report: options.report,
        onAttempt: async (attempt) => {
          progress.calls++;
          if (attempt.outcome !== 'accepted') {
            progress.failures++;
            earlier.push({ args: attempt.args, feedback: attempt.outcome });
          }
          await options.onAttempt?.({ ...attempt, section });
          if (attempt.outcome !== 'accepted') await save();
        },
      });
    } catch (error) {
      if (error instanceof SerializeError && error.code === 'ORCH_ARTIFACT_INVALID' && error.issues) throw outOfRetries(`section ${section}`, error.issues);
      throw error;
    }
    usage = addUsage(usage, result.usage);
    progress.accepted[section] = (result.artifact as Record<string, unknown>)[section];
    if (progress.redo) {
      delete progress.redo[section];
      if (Object.keys(progress.redo).length === 0) delete progress.redo;
    }
    delete progress.current;
    await save();
  };

  for (;;) {
    // The sections sent back, then the ones not yet submitted, in section order.
    for (const section of sections) {
      if (progress.redo?.[section] || !Object.hasOwn(progress.accepted, section)) await serializeOne(section);
    }
    const verdict = validateArtifact(Object.fromEntries(sections.map((s) => [s, progress.accepted[s]])), rules, options.context);
    if (verdict.ok) return { artifact: verdict.artifact, attempts: progress.calls, ...(usage ? { usage } : {}) };
    if (verdict.fatal) throw fatalVerdictError(nodeId, verdict);
    progress.failures++;
    if (progress.failures > retries) throw outOfRetries('the whole result', verdict.issues);
    progress.redo = Object.fromEntries([...issuesBySection(verdict.issues, sections)].map(([s, issues]) => [s, validationFeedback(issues, sectionToolName(toolName, s))]));
    await save();
  }
}
