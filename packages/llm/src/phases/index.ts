/**
 * @orchestra/llm/phases — phased stages (Discuss → Summarize → Serialize)
 * and artifact validation: an artifact's schema, the declared semantic
 * checks, the feedback a model gets when its finalization call fails them,
 * and the phase runners the backends use.
 * @packageDocumentation
 */
export { ArtifactSchemaError, artifactSchemaFromJson, artifactSchemaFromZod, loadArtifactSchema, type ArtifactSchema } from './artifact-schema.js';
export { requirementOf, schemaAt, type JsonSchema } from './requirement.js';
export { fieldName, schemaIssues, type ArtifactIssues, type InvalidField, type MissingField } from './schema-issues.js';
export { MAX_LISTED_VALUES, SemanticChecksSchema, parseSemanticChecks, runSemanticChecks, type CheckResult, type SemanticCheck } from './semantic-checks.js';
export { validateArtifact, type ArtifactRules, type ArtifactVerdict, type SemanticFindings, type SemanticValidator } from './validate-artifact.js';
export { issueCount, toolErrorFeedback, validationFeedback, type ValidationFeedback } from './validation-feedback.js';
export { DEFAULT_DIRECT_DISCUSS_TURNS, DEFAULT_INTERACTIVE_DISCUSS_TURNS, DEFAULT_MAX_TOOL_ROUNDS, isPhasedNode, phaseNode, phaseSpec, phasedNodeProblem, type PhaseName, type PhaseRegistry, type PhaseSpec } from './phase-spec.js';
export { READY_TOOL } from './discuss-tools.js';
export { toolRoundsNote } from './discuss-turn.js';
export { DIRECT_MODE_CONTINUE, DIRECT_MODE_INSTRUCTIONS, DIRECT_MODE_REMINDER, PHASE_FILES, SERIALIZE_SYSTEM, SUMMARIZE_INSTRUCTION, finishPhases, runPhasedStage, type FinishPhasesOptions, type PhaseRequest, type PhasedStageOptions } from './phased-stage.js';
export type { PhaseModel } from './phase-model.js';
export { INTERACTIVE_MODE_INSTRUCTIONS, INTERACTIVE_MODE_REMINDER, PhasedConversation, type PhasedConversationOptions } from './phased-conversation.js';
export { DEFAULT_VALIDATION_RETRIES, SerializeError, finalizationToolName, serializeArtifact, type SerializeAttempt, type SerializeErrorCode, type SerializeOptions, type SerializeResult } from './serialize.js';
export { issuesBySection, sectionSchema, sectionToolName } from './artifact-sections.js';
export { serializeSections, type SectionCall, type SectionsProgress, type SerializeSectionsOptions } from './serialize-sections.js';
