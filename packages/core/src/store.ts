/**
 * @orchestra/core/store — for store authors and for programs that read run
 * records: the records every `RunStore` keeps with their zod schemas
 * (their JSON is the run directory's file format), rebuilding a run's state
 * from its checkpoint and journal (`restore`), the run directory's files
 * and readers, the file store's stage helpers, a parked run's questions and
 * answers, and the process identity a lease is checked with. The
 * `RunStore`, `RunCatalogue` and error classes themselves are on
 * `@orchestra/core`; the conformance suites are on
 * `@orchestra/testing/conformance`.
 * @packageDocumentation
 */
// The store interface's helper types (RunStore and StageStore are on @orchestra/core).
export type { Awaitable, RunLease } from './engine/store/run-store.js';

// Records and their schemas.
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
export { INTERVIEWER_MODES, RecordedRunOptionsSchema } from './run/recorded-run-options.js';
export {
  AUTO_STATUS_NOTES,
  STAGE_STATUSES,
  StatusFileSchema,
  fromStatusFile,
  parseStatusFile,
  toStatusFile,
  type ParsedStatusFile,
  type PhaseCost,
  type StatusFile,
} from './engine/outcome.js';
export { TokenUsageFileSchema, TokenUsageSchema, addUsage, usageFromFile, usageToFile, type TokenUsageFile } from './engine/usage.js';
export { ConversationProgressSchema, ConversationTurnSchema, conversationMarkdown, progressMessages, type ConversationProgress, type ConversationTurn } from './handlers/conversation-progress.js';
export { ParallelProgressSchema, type ParallelProgress } from './handlers/parallel-progress.js';
export { TRANSIENT_EVENT_TYPES } from './engine/events.js';
export { ORCHESTRA_VERSION } from './engine/run-engine.js';

// A run's state from its records.
export { restore, stateOfCheckpoint, type RestoredRun } from './engine/store/restore.js';
export { verifyCheckpoint, type ExitGateJump } from './engine/store/verify-checkpoint.js';
export type { EngineState } from './engine/engine-state.js';
export { parseJournalLines } from './engine/store/parse-journal.js';
export { parseRecord } from './engine/store/parse-record.js';
export { checkPipelineHash, pipelineHash } from './engine/store/pipeline-hash.js';

// A parked run's questions and answers.
export { questionId, readPendingQuestions, readRecordedAnswers, writePendingQuestions, writeRecordedAnswers } from './engine/store/pending-questions.js';

// The run directory: its files, the file store's helpers, and readers of a run.
export { RUN_DIRECTORIES, RUN_FILES } from './run/run-files.js';
export { isRunDirectory, readCheckpoint, readJournal, readManifest } from './run/run-directory.js';
export { defaultLogsRoot, newRunId, restartDirectory } from './run/file-run-store.js';
export { checkStageFileName, openFileStage, openFileStream } from './run/file-stage-store.js';
export { readRunReport } from './run/run-report.js';
export { listRuns } from './run/list-runs.js';
export { checkRunId } from './run/file-run-catalogue.js';

// Who holds a lease.
export { hostName, isHolderAlive, isProcessAlive, ownIdentity, processStartTime } from './os/process-identity.js';
