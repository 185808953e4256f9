export { RunSupervisor, type AnswerResult, type RunAttachment, type RunQuestion, type RunSupervisorOptions, type RunStanding, type StartRunRequest, type SupervisedRun } from './run-supervisor.js';
export { guardedSetup, invalidPipeline, plainSetup, type BackendFactory, type BackendRequest, type GuardedSetupOptions, type RunSetup, type RunSetupHook, type RunSetupRequest } from './run-setup.js';
export { RunRefusal, RunUnreadableError } from './run-refusal.js';
export { HeldInterviewer, type AnswerRefusal, type PendingQuestion } from './held-interviewer.js';
export { RunEventLog, type EventListener, type FollowStart, type LoggedEvent } from './run-event-log.js';
export { FOLLOW_INTERVAL_MS, followRecordedEvents } from './recorded-events.js';
export { TOOL_BACKENDS, commandUses, type CommandUse } from './command-uses.js';
export type { QuestionPolicy } from './active-run.js';
