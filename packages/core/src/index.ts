/**
 * @orchestra/core — DOT pipeline loading, transforms and validation.
 * No LLM dependency.
 * @packageDocumentation
 */
export type { Diagnostic, EdgeRef, Severity, SourceLocation } from './diagnostics/diagnostic.js';
export { hasErrors, sortDiagnostics } from './diagnostics/diagnostic.js';
export { OrchestraError } from './errors.js';

export type { Attributes, AttributeOrigin, AttributeSource, Graph, GraphEdge, GraphNode, HasAttributes } from './graph/model.js';
export { nodeClasses, outgoingEdges, withNodeAttributes, withNodes } from './graph/model.js';
export type { TypedValue, ValueType } from './graph/values.js';
export {
  booleanAttr,
  durationAttr,
  inferValue,
  integerAttr,
  isValidValue,
  parseBoolean,
  parseDuration,
  parseFloatValue,
  parseInteger,
  stringAttr,
} from './graph/values.js';
export type { AttributeScope, AttributeSpec } from './graph/attribute-specs.js';
export { ATTRIBUTE_SPECS, FIDELITY_MODES, REASONING_EFFORTS, RETRY_POLICY_NAMES, findAttributeSpec } from './graph/attribute-specs.js';
export { BUILT_IN_HANDLER_TYPES, DEFAULT_HANDLER_TYPE, SHAPE_HANDLER_TYPES, nodeShape, resolveHandlerType } from './graph/handler-types.js';
export { findExitNodes, findStartNodes } from './graph/terminals.js';

export { MAX_SOURCE_LENGTH, parsePipelineSource, type ParseResult } from './dot/parse-pipeline-source.js';
export { MAX_SUBGRAPH_DEPTH, NODE_ID_PATTERN, classFromLabel } from './dot/build-graph.js';
export { MAX_EDGE_CHAIN } from './dot/normalize-source.js';

export type { Condition, ConditionClause, ConditionError, ConditionParseResult } from './conditions/condition.js';
export { parseCondition, parseConditionOrThrow } from './conditions/parse-condition.js';
export { evaluateCondition, resolveConditionKey, type ConditionScope } from './conditions/evaluate-condition.js';

export type { Selector, Stylesheet, StylesheetError, StylesheetProperty, StylesheetRule } from './stylesheet/stylesheet.js';
export { STYLESHEET_PROPERTIES, specificity } from './stylesheet/stylesheet.js';
export { parseStylesheet, type StylesheetParseResult } from './stylesheet/parse-stylesheet.js';
export { applyStylesheet } from './stylesheet/apply-stylesheet.js';

export type { Transform } from './transforms/transform.js';
export { stylesheetTransform } from './transforms/stylesheet-transform.js';
export { expandGoal, goalExpansionTransform } from './transforms/goal-expansion-transform.js';
export { BUILT_IN_TRANSFORMS } from './transforms/built-in-transforms.js';

export type { LintContext, LintRule } from './lint/lint-rule.js';
export { BUILT_IN_RULES } from './lint/built-in-rules.js';
export { OUTCOME_VALUES } from './lint/rules/condition-value.js';
export { ValidationError, validate, validateOrRaise, type ValidateOptions } from './lint/validate.js';

export {
  PipelineReadError,
  createPipelineLoader,
  loadPipeline,
  loadPipelineFile,
  type LoadResult,
  type PipelineLoader,
  type PipelineLoaderOptions,
} from './pipeline/pipeline-loader.js';

export type { JsonValue, Outcome, StageStatus, StatusFile } from './engine/outcome.js';
export { OutcomeSchema, STAGE_STATUSES, StatusFileSchema, fromStatusFile, isSuccess, toStatusFile } from './engine/outcome.js';
export { ContextValueError, RunContext } from './engine/run-context.js';
export type { EdgeChoiceReason, RunEvent, RunEventType } from './engine/events.js';
export { EventBus } from './engine/event-bus.js';
export { normalizeLabel, parseAccelerator, type Accelerator } from './engine/accelerator.js';
export { conditionHolds, selectEdge, type EdgeChoice } from './engine/select-edge.js';
export {
  DEFAULT_BACKOFF,
  RETRY_PRESETS,
  buildRetryPolicy,
  delayForAttempt,
  isRetryableError,
  type BackoffConfig,
  type RetryPolicy,
  type RetryPresetName,
} from './engine/retry-policy.js';
export type { Handler, HandlerInput } from './engine/handler.js';
export { HandlerRegistry } from './engine/handler-registry.js';
export { MissingHandlerError, ORCHESTRA_VERSION, runPipeline, type RunOptions, type RunResult } from './engine/run-pipeline.js';
export { resumePipeline, type ResumeOptions } from './engine/resume-pipeline.js';

export { simulationBackend, type CodergenBackend, type CodergenRequest } from './handlers/codergen-backend.js';
export { LAST_RESPONSE_LENGTH, createCodergenHandler } from './handlers/codergen-handler.js';
export { composePrompt } from './handlers/compose-prompt.js';
export { conditionalHandler, exitHandler, startHandler } from './handlers/noop-handlers.js';
export { killRunningTools, toolHandler } from './handlers/tool-handler.js';
export { contextEnvName, toolEnvironment } from './handlers/tool-environment.js';
export { createDefaultRegistry } from './handlers/default-registry.js';
export { DEFAULT_MAX_PARALLEL, JOIN_POLICIES, parallelHandler } from './handlers/parallel-handler.js';
export { fanInHandler } from './handlers/fan-in-handler.js';
export type { BranchResult, BranchRunner } from './engine/handler.js';

export { CHECKPOINT_INTERVAL_MS, CheckpointError, CheckpointSchema, RUN_STATUSES, readCheckpoint, type Checkpoint, type RunStatus } from './run/checkpoint.js';
export { JournalEntrySchema, readJournal, type JournalEntry } from './run/journal.js';
export { ManifestSchema, type Manifest } from './run/manifest.js';
export { defaultLogsRoot, readManifest } from './run/run-directory.js';
export { RUN_FILES } from './run/run-files.js';

export { ANSWER_VALUES, AnswerSchema, OptionSchema, QUESTION_TYPES, QuestionSchema, matchOption, timeoutAnswer } from './human/question.js';
export type { Answer, Option, Question, QuestionInput } from './human/question.js';
export { askEach, type AskOptions, type Interviewer } from './human/interviewer.js';
export { AutoApproveInterviewer, CallbackInterviewer, QueueInterviewer, RecordingInterviewer, answerFromText, type QueuedAnswer } from './human/simple-interviewers.js';
export { ConsoleInterviewer, type ConsoleStreams } from './human/console-interviewer.js';
export { createWaitHumanHandler } from './handlers/wait-human-handler.js';
export {
  AnswerLater,
  PendingQuestionsSchema,
  RecordedAnswersInterviewer,
  RecordedAnswersSchema,
  answerForQuestion,
  questionId,
  readPendingQuestions,
  readRecordedAnswers,
  recordAnswer,
  writePendingQuestions,
  type PendingQuestions,
  type RecordedAnswers,
} from './human/park.js';
