/**
 * @orchestra/core/handlers — for handler and backend authors: what a
 * handler gets besides the basics on `@orchestra/core` (the run view, the
 * process ledger, child runs, parallel branches), the stage reporter that
 * turns a backend's reports into events, fidelity, the tool environment,
 * process groups and the start gate of tool commands, prompts, edge
 * selection and retry policy as the engine applies them, and the built-in
 * handlers to wrap or re-register.
 * @packageDocumentation
 */

// What a handler gets.
export type {
  Arrival,
  BranchResult,
  BranchRunner,
  ChildRunOptions,
  ChildRunStart,
  ChildRunner,
  ChildRuns,
  ProcessLedger,
  RunView,
} from './engine/handler.js';
export { OutcomeSchema, isSuccess } from './engine/outcome.js';
export { toJsonValue } from './engine/run-context.js';
export { systemClock, sleepOn } from './engine/clock.js';

// Reporting an LLM call.
export { silentReporter, type LlmCall, type ToolCallReport } from './handlers/codergen-backend.js';
export type { EdgeChoiceReason, ToolCallStatus } from './engine/events.js';
export { createStageReporter, withSpentUsage, type StageReporter } from './handlers/stage-reporter.js';
export { DEFAULT_FIDELITY, resolveFidelity, type Fidelity, type FidelityMode } from './handlers/fidelity.js';
export { composePrompt, composeStagePrompt } from './handlers/compose-prompt.js';
export { expandContextReferences } from './text/context-references.js';
export { collect, formatValuePath, parseValuePath, resolveContextPath, type Located, type PathSegment, type ValuePath } from './text/value-path.js';

// Commands: their environment, their process groups, the start gate.
export { contextEnvName, toolEnvironment } from './handlers/tool-environment.js';
export { killRunningTools, trackProcessGroup } from './handlers/process-groups.js';
export { KILL_GRACE_MS, killProcessGroup, signalProcessGroup, type KillProcessGroupOptions } from './os/kill-process-group.js';
export { EXEC_GATE_SCRIPT, GATE_CLOSED_EXIT, GATE_LINE } from './handlers/tool-process.js';
export { pathProblem, type ExpectedPath, type PathProblem } from './os/path-problem.js';

// Routing and retries, as the engine decides them.
export { conditionHolds, selectEdge, type EdgeChoice } from './engine/select-edge.js';
export {
  DEFAULT_BACKOFF,
  MAX_RETRY_AFTER_MS,
  RETRY_PRESETS,
  buildRetryPolicy,
  delayForAttempt,
  isRetryableError,
  retryAfterOf,
  type BackoffConfig,
  type RetryPolicy,
  type RetryPresetName,
} from './engine/retry-policy.js';

// The built-in handlers.
export { createLlmHandler } from './handlers/default-registry.js';
export { LAST_RESPONSE_LENGTH, createCodergenHandler } from './handlers/codergen-handler.js';
export { CONVERSATION_FILE, createInteractiveHandler } from './handlers/interactive-handler.js';
export { createCodergenDispatcher, isInteractiveNode, type PhasedMode } from './handlers/codergen-dispatcher.js';
export { isConversational, type ConversationFinish } from './handlers/conversational-backend.js';
export { conditionalHandler, exitHandler, startHandler } from './handlers/noop-handlers.js';
export { toolHandler } from './handlers/tool-handler.js';
export { DEFAULT_MAX_PARALLEL, JOIN_POLICIES, parallelHandler } from './handlers/parallel-handler.js';
export { fanInHandler } from './handlers/fan-in-handler.js';
export { createWaitHumanHandler } from './handlers/wait-human-handler.js';
export { SUB_PIPELINE_TYPE, subPipelineHandler } from './handlers/sub-pipeline-handler.js';
export { MANAGER_LOOP_TYPE, managerLoopHandler } from './handlers/manager-loop-handler.js';

// Conference nodes (type="conference"): the handler, the model side a backend offers, and the evidence check.
export { createConferenceHandler } from './handlers/conference/conference-handler.js';
export {
  CONFERENCE_TEMPLATE_NAMES,
  EVIDENCE_RULES,
  ROLE_TIERS,
  type ChiefRequest,
  type ChiefResult,
  type ConferenceBackend,
  type ConferenceRole,
  type ConferenceTemplateName,
  type EvidenceRule,
  type Receipt,
  type RoleCallRequest,
  type RoleCallResult,
  type RoleMessage,
  type RoleStatus,
  type RoleTier,
  type ToolResult,
} from './handlers/conference/conference-types.js';
export { CONFERENCE_TYPE, conferenceSettings, type ConferenceSettings } from './graph/conference-settings.js';
export { checkEvidence, type EvidenceSources, type EvidenceVerdict } from './handlers/conference/evidence-check.js';
export { simulatedConference } from './handlers/conference/simulated-conference.js';
export { RECEIPTS_FILE, ReceiptBook } from './handlers/conference/receipts.js';
export { MAX_QUOTED_FILE_BYTES, readWorkspaceFile, resolveInWorkspace, type WorkspaceRead } from './handlers/conference/workspace-files.js';
