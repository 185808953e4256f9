import type { Handler, HandlerInput } from '../../engine/handler.js';
import type { JsonValue, Outcome, PhaseCost } from '../../engine/outcome.js';
import { isOrchestraError } from '../../errors.js';
import { addUsage, usageFromFile, usageToFile, type TokenUsage } from '../../engine/usage.js';
import type { CodergenBackend, LlmReporter } from '../codergen-backend.js';
import { composeStagePrompt } from '../compose-prompt.js';
import { LAST_RESPONSE_LENGTH } from '../codergen-handler.js';
import { createStageReporter, withSpentUsage } from '../stage-reporter.js';
import { askRole } from './ask-role.js';
import { CONFERENCE_FILES, answeredCount, conferenceJson, conferenceMarkdown, type ChiefRecord } from './conference-record.js';
import { conferenceSettings, conferenceSettingsProblem } from '../../graph/conference-settings.js';
import { conferenceTemplates } from './conference-templates.js';
import type { ConferenceBackend, ConferenceRole } from './conference-types.js';
import { ReceiptBook } from './receipts.js';
import { renderEvidence } from './render-evidence.js';
import { roleRecordFromJson, roleRecordToJson, type RoleRecord } from './role-record.js';
import { readWorkspaceFile } from './workspace-files.js';

/** How far a conference got: in the checkpoint, so a resumed one calls neither the chief nor an answered role again. */
interface ConferenceProgress {
  chief?: ChiefRecord;
  roles: Record<string, RoleRecord>;
}

function progressOf(saved: JsonValue | undefined): ConferenceProgress {
  const p = (typeof saved === 'object' && saved !== null && !Array.isArray(saved) ? saved : {}) as Record<string, unknown>;
  const c = p.chief as Record<string, unknown> | undefined;
  const chief: ChiefRecord | undefined =
    c && typeof c.reply === 'string' && Array.isArray(c.receipts)
      ? { reply: c.reply, model: String(c.model ?? ''), calls: Number(c.calls ?? 0), receipts: c.receipts.map(String), ...(c.usage ? { usage: usageFromFile(c.usage as never) } : {}) }
      : undefined;
  const roles: Record<string, RoleRecord> = {};
  for (const [name, value] of Object.entries((p.roles ?? {}) as Record<string, unknown>)) {
    const record = roleRecordFromJson(value);
    if (record) roles[name] = record;
  }
  return { ...(chief ? { chief } : {}), roles };
}

function progressJson(p: ConferenceProgress): JsonValue {
  return {
    ...(p.chief ? { chief: { reply: p.chief.reply, model: p.chief.model, calls: p.chief.calls, receipts: p.chief.receipts, ...(p.chief.usage ? { usage: usageToFile(p.chief.usage) } : {}) } } : {}),
    roles: Object.fromEntries(Object.entries(p.roles).map(([name, r]) => [name, roleRecordToJson(r)])),
  };
}

/** A reporter that marks every finished call with `phase` (the chief, or `role:<name>`). */
function inPhase(reporter: LlmReporter, phase: string): LlmReporter {
  return { delta: (text) => reporter.delta(text), response: (call) => reporter.response({ ...call, phase }), toolCall: (report) => reporter.toolCall(report) };
}

function fail(reason: string, retryable = false): Outcome {
  return { status: 'fail', failureReason: reason, retryable };
}

/**
 * The conference handler (`type="conference"`): the chief (the node's
 * model, with only `conference.tools`) gathers evidence, each tool call
 * recorded as a receipt in `receipts.jsonl`; then every role of
 * `conference.roles` answers the same question concurrently with no tools,
 * seeing the evidence and its own contract, never another role's reply.
 * Each answer's `Evidence:` line is checked (a rejected one is sent back
 * once, then the role is `ungrounded`); `ABSTAIN` abstains. Writes
 * `conference.json` and `conference.md`, sets `conference.<role>.status`,
 * `conference.<role>.reply` and `conference.answered`, and succeeds when
 * at least `conference.quorum` roles answered. The chief's result and each
 * finished role are kept in the node's progress: a resumed conference calls
 * none of them again. The model side is the backend's `conference`.
 */
export function createConferenceHandler(backend: CodergenBackend): Handler {
  return {
    async execute(input) {
      const port = backend.conference;
      if (!port) return fail(`conference node ${input.node.id} needs a backend that runs conferences`);
      const problem = conferenceSettingsProblem(input.node, port.toolNames());
      if (problem) return fail(problem);
      let roles: readonly ConferenceRole[];
      try {
        roles = port.roles(conferenceSettings(input.node).roles, input.node, input.graph);
      } catch (error) {
        if (isOrchestraError(error)) return fail(error.message);
        throw error;
      }
      const { reporter, usage } = createStageReporter(input);
      try {
        return await runConference(input, port, roles, reporter);
      } catch (error) {
        throw withSpentUsage(error, usage());
      }
    },
    cannotRun(node, graph) {
      const port = backend.conference;
      if (!port) return `node ${node.id} is a conference (type="conference") but the backend runs no conferences`;
      const problem = conferenceSettingsProblem(node, port.toolNames());
      if (problem) return problem;
      try {
        port.roles(conferenceSettings(node).roles, node, graph);
      } catch (error) {
        if (isOrchestraError(error)) return error.message;
        throw error;
      }
      return port.cannotRun?.(node, graph);
    },
  };
}

async function runConference(input: HandlerInput, port: ConferenceBackend, roles: readonly ConferenceRole[], reporter: LlmReporter): Promise<Outcome> {
  const { node, graph, stage, signal } = input;
  const settings = conferenceSettings(node);
  const question = composeStagePrompt(node, graph, input.context);
  await stage.write('prompt.md', question);
  const progress = progressOf(input.progress);
  let saving: Promise<void> = Promise.resolve();
  // Roles finish concurrently: their saves go one after another, each with everything finished so far.
  const save = (): Promise<void> => (saving = saving.then(() => input.saveProgress(progressJson(progress))));
  const book = await ReceiptBook.open(stage);

  if (!progress.chief) {
    const issued: string[] = [];
    const chief = await port.runChief({
      node,
      graph,
      question,
      context: input.context,
      signal,
      stage,
      workdir: input.workdir,
      run: input.run,
      report: inPhase(reporter, 'chief'),
      processes: input.processes,
      tools: settings.tools,
      requireTool: settings.requireTool,
      maxTurns: settings.maxChiefTurns,
      receipt: async (result) => {
        const receipt = await book.issue(result);
        issued.push(receipt.receiptId);
        return receipt.receiptId;
      },
    });
    if (settings.requireTool && issued.length === 0) return fail(`the chief of conference ${node.id} answered without calling a tool, and conference.require_tool is set: there is no evidence for the roles`);
    progress.chief = { reply: chief.reply, model: chief.model, calls: chief.calls, receipts: issued, ...(chief.usage ? { usage: chief.usage } : {}) };
    await save();
  }
  const chief = progress.chief;
  const evidence = book.select(chief.receipts);
  const receiptIds = new Set(evidence.map((r) => r.receiptId));
  const workspace = port.workspace(node);
  const templates = conferenceTemplates(input.run.sourceFile ?? undefined, port.templates?.(node, graph));
  const shown = renderEvidence(evidence);

  const pending = roles.filter((role) => !progress.roles[role.name]);
  const settled = await Promise.allSettled(
    pending.map(async (role) => {
      input.emit({ type: 'conference.role.started', nodeId: node.id, role: role.name, tier: role.tier });
      const record = await askRole({
        role,
        question,
        evidence: shown,
        templates,
        sources: { receipts: receiptIds, readFile: (path) => readWorkspaceFile(workspace, path) },
        call: (request) => port.askRole({ ...request, node, graph, signal, report: inPhase(reporter, `role:${role.name}`) }),
        rejected: (reason, final) => input.emit({ type: 'conference.role.rejected', nodeId: node.id, role: role.name, reason, final }),
      });
      progress.roles[role.name] = record;
      input.emit({ type: 'conference.role.completed', nodeId: node.id, role: role.name, status: record.status, durationMs: Math.round(record.durationMs), ...(record.usage ? { usage: record.usage } : {}) });
      await save();
    }),
  );
  await saving;
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) throw failure.reason;

  const records = roles.map((role) => progress.roles[role.name] as RoleRecord);
  const record = { nodeId: node.id, question, chief, evidence, roles: records, quorum: settings.quorum };
  await stage.write(CONFERENCE_FILES.json, `${JSON.stringify(conferenceJson(record), null, 2)}\n`);
  const markdown = conferenceMarkdown(record);
  await stage.write(CONFERENCE_FILES.markdown, markdown);

  const answered = answeredCount(record);
  const phases: Record<string, PhaseCost> = { chief: { calls: chief.calls, ...(chief.usage ? { usage: chief.usage } : {}) } };
  let usage: TokenUsage | undefined = chief.usage;
  for (const r of records) {
    phases[`role:${r.role}`] = { calls: r.calls, ...(r.usage ? { usage: r.usage } : {}) };
    usage = addUsage(usage, r.usage);
  }
  const contextUpdates: Record<string, JsonValue> = { last_stage: node.id, 'conference.answered': answered };
  for (const r of records) {
    contextUpdates[`conference.${r.role}.status`] = r.status;
    contextUpdates[`conference.${r.role}.reply`] = r.reply;
  }
  const summary = records.map((r) => `${r.role}: ${r.status}`).join(', ');
  contextUpdates.last_response = `${answered} of ${records.length} roles answered (${summary})`.slice(0, LAST_RESPONSE_LENGTH);
  const base = { contextUpdates, phases, ...(usage ? { usage } : {}) };
  if (answered >= settings.quorum) return { status: 'success', notes: `Conference ${node.id}: ${answered} of ${records.length} roles answered (quorum ${settings.quorum})`, ...base };
  // A retry asks everyone again: the same evidence and replies would give the same result.
  await input.saveProgress(undefined);
  const reasons = records.filter((r) => r.status !== 'answered').map((r) => `${r.role} ${r.status}${r.reason ? `: ${r.reason}` : ''}`);
  return { status: 'fail', failureReason: `conference ${node.id}: ${answered} of ${records.length} roles answered, quorum is ${settings.quorum} (${reasons.join('; ')})`, ...base };
}
