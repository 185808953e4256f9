/**
 * @orchestra/core — DOT pipeline loading, transforms, validation and the
 * execution engine. No LLM dependency.
 * @packageDocumentation
 */
export * from './loader.js';

export type { JsonValue, Outcome, ParsedStatusFile, PhaseCost, StageStatus, StatusFile } from './engine/outcome.js';
export { AUTO_STATUS_NOTES, OutcomeSchema, STAGE_STATUSES, StatusFileSchema, fromStatusFile, isSuccess, parseStatusFile, toStatusFile } from './engine/outcome.js';
export { ContextValueError, RunContext, toJsonValue } from './engine/run-context.js';
export { TRANSIENT_EVENT_TYPES, type EdgeChoiceReason, type RunEvent, type RunEventType, type ToolCallStatus } from './engine/events.js';
export { TokenUsageFileSchema, TokenUsageSchema, addUsage, usageFromFile, usageToFile, type TokenUsage, type TokenUsageFile } from './engine/usage.js';
export { EventBus } from './engine/event-bus.js';
export { conditionHolds, selectEdge, type EdgeChoice } from './engine/select-edge.js';
export {
  DEFAULT_BACKOFF,
  RETRY_PRESETS,
  buildRetryPolicy,
  delayForAttempt,
  isRetryableError,
  MAX_RETRY_AFTER_MS,
  retryAfterOf,
  type BackoffConfig,
  type RetryPolicy,
  type RetryPresetName,
} from './engine/retry-policy.js';
export { DEFAULT_MAX_VISITS, VisitGuard, maxVisits } from './engine/visit-guard.js';
export type { Arrival, Handler, HandlerInput, ProcessLedger, RunView } from './engine/handler.js';
export { HandlerRegistry } from './engine/handler-registry.js';
export { MissingHandlerError, planRun, type Plan } from './engine/plan.js';
export { ORCHESTRA_VERSION, type EngineOptions } from './engine/run-engine.js';
export type { RunResult } from './engine/run-result.js';
export { systemClock, sleepOn, type Clock } from './engine/clock.js';
export { AnswerLater } from './engine/answer-later.js';
export { runPipeline } from './runner/run-pipeline.js';
export { resumePipeline, type ResumeOptions } from './runner/resume-pipeline.js';
export type { RunOptions } from './runner/run-options.js';
export type { Awaitable, RunLease, RunStore, StageStore } from './engine/store/run-store.js';
export {
  CHECKPOINT_INTERVAL_MS,
  CheckpointSchema,
  JournalEntrySchema,
  LeaseHolderSchema,
  ManifestSchema,
  PendingQuestionsSchema,
  ProcessRecordSchema,
  RUN_STATUSES,
  RecordedAnswersSchema,
  type Checkpoint,
  type JournalEntry,
  type JournalRead,
  type LeaseHolder,
  type Manifest,
  type PendingQuestions,
  type ProcessRecord,
  type RecordedAnswers,
  type RunStatus,
} from './engine/store/records.js';
export { CheckpointError, NoSpaceError, RunLockedError } from './engine/store/store-errors.js';
export { checkPipelineHash, pipelineHash } from './engine/store/pipeline-hash.js';
export { restore, stateOfCheckpoint, type RestoredRun } from './engine/store/restore.js';
export { parseJournalLines } from './engine/store/parse-journal.js';
export type { EngineState } from './engine/engine-state.js';
export { questionId, readPendingQuestions, readRecordedAnswers, writePendingQuestions, writeRecordedAnswers } from './engine/store/pending-questions.js';
export { FileRunStore, defaultLogsRoot, newRunId, restartDirectory, type FileRunStoreOptions } from './run/file-run-store.js';
export { FileRunCatalogue } from './run/file-run-catalogue.js';
export type { CreateRunOptions, RunCatalogue, RunListing } from './run/run-catalogue.js';
export { RUN_DIRECTORIES, RUN_FILES } from './run/run-files.js';
export { isRunDirectory, readCheckpoint, readJournal, readManifest } from './run/run-directory.js';
export { checkStageFileName, openFileStage, openFileStream } from './run/file-stage-store.js';
export { readRunReport, type RunReport, type RunState } from './run/run-report.js';
export { INTERVIEWER_MODES, RecordedRunOptionsSchema, type RecordedRunOptions } from './run/recorded-run-options.js';
export { isProcessAlive, processStartTime } from './os/process-identity.js';
export { KILL_GRACE_MS, killProcessGroup, signalProcessGroup, type KillProcessGroupOptions } from './os/kill-process-group.js';
export { pathProblem, type ExpectedPath, type PathProblem } from './os/path-problem.js';

export { silentReporter, type CodergenBackend, type CodergenRequest, type LlmCall, type LlmReporter, type ToolCallReport } from './handlers/codergen-backend.js';
export { DEFAULT_FIDELITY, resolveFidelity, type Fidelity, type FidelityMode } from './handlers/fidelity.js';
export { createStageReporter, withSpentUsage, type StageReporter } from './handlers/stage-reporter.js';
export { simulationBackend } from './handlers/simulation-backend.js';
export {
  isConversational,
  type Conversation,
  type ConversationFinish,
  type ConversationMessage,
  type ConversationStart,
  type ConversationalBackend,
} from './handlers/conversational-backend.js';
export { CONVERSATION_FILE, createInteractiveHandler } from './handlers/interactive-handler.js';
export { createCodergenDispatcher, isInteractiveNode, type PhasedMode } from './handlers/codergen-dispatcher.js';
export {
  ConversationProgressSchema,
  ConversationTurnSchema,
  conversationMarkdown,
  progressMessages,
  type ConversationProgress,
  type ConversationTurn,
} from './handlers/conversation-progress.js';
export {
  CONVERSATION_COMMANDS,
  CONVERSATION_KIND,
  conversationQuestion,
  isConversationQuestion,
  parseConversationCommand,
  type ConversationCommand,
} from './human/conversation-question.js';
export { LAST_RESPONSE_LENGTH, createCodergenHandler } from './handlers/codergen-handler.js';
export { composePrompt, composeStagePrompt } from './handlers/compose-prompt.js';
export { expandContextReferences } from './text/context-references.js';
export { conditionalHandler, exitHandler, startHandler } from './handlers/noop-handlers.js';
export { toolHandler } from './handlers/tool-handler.js';
export { killRunningTools, trackProcessGroup } from './handlers/process-groups.js';
export { EXEC_GATE_SCRIPT, GATE_CLOSED_EXIT, GATE_LINE } from './handlers/tool-process.js';
export { contextEnvName, toolEnvironment } from './handlers/tool-environment.js';
export { createDefaultRegistry, createLlmHandler } from './handlers/default-registry.js';
export { DEFAULT_MAX_PARALLEL, JOIN_POLICIES, parallelHandler } from './handlers/parallel-handler.js';
export { ParallelProgressSchema, type ParallelProgress } from './handlers/parallel-progress.js';
export { fanInHandler } from './handlers/fan-in-handler.js';
export type { BranchResult, BranchRunner } from './engine/handler.js';


export { ANSWER_VALUES, AnswerSchema, OptionSchema, QUESTION_TYPES, QuestionSchema, matchOption, timeoutAnswer } from './engine/question.js';
export type { Answer, Option, Question, QuestionInput } from './engine/question.js';
export { askEach, type AskOptions, type Interviewer } from './human/interviewer.js';
export { AutoApproveInterviewer, CallbackInterviewer, QueueInterviewer, RecordingInterviewer, answerFromText, type QueuedAnswer } from './human/simple-interviewers.js';
export { ConsoleInterviewer, type ConsoleStreams } from './human/console-interviewer.js';
export { collect, formatValuePath, parseValuePath, resolveContextPath, type Located, type PathSegment, type ValuePath } from './text/value-path.js';
export { createWaitHumanHandler } from './handlers/wait-human-handler.js';
export { RecordedAnswersInterviewer, answerForQuestion, recordAnswer, type RecordAnswerOptions } from './human/park.js';

export * from './supervisor/index.js';
