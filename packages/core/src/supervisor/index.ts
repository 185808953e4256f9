export { RunSupervisor } from './run-supervisor.js';
export type { AnswerResult, RunAttachment, RunQuestion, RunStanding, RunSupervisorOptions, StartRunRequest, SupervisedRun } from './supervisor-types.js';
export { guardedSetup, invalidPipeline, plainSetup, type BackendFactory, type BackendRequest, type GuardedSetupOptions, type RunSetup, type RunSetupHook, type RunSetupRequest } from './run-setup.js';
export { RunRefusal, RunUnreadableError } from './run-refusal.js';
export { HeldInterviewer, type AnswerRefusal, type PendingQuestion } from './held-interviewer.js';
export { RunEventLog, type EventListener, type FollowStart, type LoggedEvent } from './run-event-log.js';
export { FOLLOW_INTERVAL_MS, followRecordedEvents } from './recorded-events.js';
export { TOOL_BACKENDS, commandUses, type CommandUse } from './command-uses.js';
export type { QuestionPolicy } from './active-run.js';
