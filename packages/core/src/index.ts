/**
 * @orchestra/core — run DOT pipelines from a program: load and validate a
 * pipeline, run and resume it, keep runs in a store or a catalogue and drive
 * them through the run supervisor, plug in a backend, handlers and
 * interviewers, and follow a run's events. No LLM dependency.
 *
 * The other entry points are for narrower audiences:
 * `@orchestra/core/loader` (DOT tooling, without the engine),
 * `@orchestra/core/store` (store authors and readers of run records),
 * `@orchestra/core/handlers` (handler and backend authors) and
 * `@orchestra/core/human` (interviewers and front ends). docs/library.md
 * documents every export of each.
 * @packageDocumentation
 */

// Loading and validating (also on @orchestra/core/loader, which has the rest of the DOT tooling).
export {
  PipelineReadError,
  loadPipeline,
  loadPipelineFile,
  type LoadResult,
  type PipelineLoaderOptions,
} from './pipeline/pipeline-loader.js';
export { ValidationError, validate, validateOrRaise, type ValidateOptions } from './lint/validate.js';
export type { Diagnostic, Severity, SourceLocation } from './diagnostics/diagnostic.js';
export { formatDiagnostic } from './diagnostics/format-diagnostic.js';
export type { Graph, GraphEdge, GraphNode } from './graph/model.js';

// Running and resuming.
export { runPipeline } from './runner/run-pipeline.js';
export { createRun } from './runner/create-run.js';
export type { RunOptions } from './runner/run-options.js';
export { resumePipeline, type ResumeOptions } from './runner/resume-pipeline.js';
export type { RunResult } from './engine/run-result.js';
export type { Clock } from './engine/clock.js';
export { formatCost, type Cost, type TokenUsage } from './engine/usage.js';

// Events.
export { EventBus } from './engine/event-bus.js';
export type { RunEvent, RunEventType } from './engine/events.js';
export type { ChildEventListener, ChildRunOrigin, RunObserver } from './engine/child-events.js';

// LLM stages: the backend interfaces and the simulation.
export type { CodergenBackend, CodergenRequest, LlmReporter } from './handlers/codergen-backend.js';
export type { Conversation, ConversationMessage, ConversationStart, ConversationalBackend } from './handlers/conversational-backend.js';
export { simulationBackend } from './handlers/simulation-backend.js';

// Handlers.
export type { Handler, HandlerInput } from './engine/handler.js';
export { HandlerRegistry } from './engine/handler-registry.js';
export { createDefaultRegistry } from './handlers/default-registry.js';
export type { JsonValue, Outcome, StageStatus } from './engine/outcome.js';
export { ContextValueError, RunContext } from './engine/run-context.js';

// Human gates: interviewers.
export type { AskOptions, Interviewer } from './human/interviewer.js';
export type { Answer, Option, Question } from './engine/question.js';
export { AutoApproveInterviewer, CallbackInterviewer, QueueInterviewer, RecordingInterviewer, type QueuedAnswer } from './human/simple-interviewers.js';
export { ConsoleInterviewer, type ConsoleStreams } from './human/console-interviewer.js';
export { AnswerLater } from './engine/answer-later.js';

// Where runs are kept: stores and catalogues.
export type { RunStore, StageStore } from './engine/store/run-store.js';
export { FileRunStore, type FileRunStoreOptions } from './run/file-run-store.js';
export type { CreateRunOptions, RunCatalogue, RunListing } from './run/run-catalogue.js';
export { FileRunCatalogue } from './run/file-run-catalogue.js';
export type { RunReport, RunState } from './run/run-report.js';

// The run supervisor: one run lifecycle for every front end.
export { RunSupervisor } from './supervisor/run-supervisor.js';
export type { AnswerResult, RunAttachment, RunDispatch, RunQuestion, RunStanding, RunSupervisorOptions, StartRunRequest, SupervisedRun } from './supervisor/supervisor-types.js';
export type { QuestionPolicy } from './supervisor/active-run.js';
export type { PendingQuestion } from './supervisor/held-interviewer.js';
export type { RecordedRunOptions } from './run/recorded-run-options.js';
export {
  guardedSetup,
  plainSetup,
  type BackendFactory,
  type BackendRequest,
  type GuardedSetupOptions,
  type RunSetup,
  type RunSetupHook,
  type RunSetupRequest,
} from './supervisor/run-setup.js';
export { TOOL_BACKENDS, commandUses, type CommandUse } from './supervisor/command-uses.js';
export { RunEventLog, type EventListener, type FollowStart, type LoggedEvent } from './supervisor/run-event-log.js';

// Cassettes: a run's model traffic, answers and tool results recorded, and played back.
export { CassetteRecorder, type CassetteRecordOptions } from './cassette/cassette-recorder.js';
export { CassettePlayer, type CassetteReplayOptions } from './cassette/cassette-player.js';
export type { Cassette } from './cassette/cassette.js';
export { CassetteError, type CassetteErrorCode } from './cassette/cassette-error.js';
export { CASSETTE_KINDS, CASSETTE_VERSION, type CassetteEntry, type CassetteHeader, type CassetteKind, type ReplayMode } from './cassette/cassette-format.js';
export { readCassette, type CassetteContents, type CassetteLine } from './cassette/cassette-file.js';
export { cassetteInterviewer } from './cassette/cassette-interviewer.js';
export { cassetteHandlers, cassetteToolHandler } from './cassette/cassette-handlers.js';

// Errors.
export { OrchestraError, isOrchestraError } from './errors.js';
export { CORE_ERROR_CODES, type CoreErrorCode } from './error-codes.js';
export { MissingHandlerError } from './engine/plan.js';
export { CheckpointError, NoSpaceError, RunLockedError, StoreUnavailableError, isStoreUnavailable } from './engine/store/store-errors.js';
export { RunRefusal, RunUnreadableError } from './supervisor/run-refusal.js';
