/**
 * @orchestra/core/loader — DOT pipeline loading, transforms and validation,
 * without the engine: what `orchestra validate` needs, and nothing that makes
 * it slower to start.
 * @packageDocumentation
 */
export type { Diagnostic, EdgeRef, Severity, SourceLocation } from './diagnostics/diagnostic.js';
export { hasErrors, sortDiagnostics } from './diagnostics/diagnostic.js';
export { diagnosticToJson, formatDiagnostic } from './diagnostics/format-diagnostic.js';
export { OrchestraError, isOrchestraError } from './errors.js';
export { CORE_ERROR_CODES, type CoreErrorCode } from './error-codes.js';
export { escapeControl, type EscapeOptions } from './text/escape-control.js';

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
export { AGENT_BACKENDS, ATTRIBUTE_SPECS, FIDELITY_MODES, REASONING_EFFORTS, RETRY_POLICY_NAMES, findAttributeSpec } from './graph/attribute-specs.js';
export { BUILT_IN_HANDLER_TYPES, DEFAULT_HANDLER_TYPE, LLM_HANDLER_TYPES, SHAPE_HANDLER_TYPES, hasLlmStages, nodeShape, resolveHandlerType } from './graph/handler-types.js';
export { WORKSPACE_TOOL_NAMES, type WorkspaceToolName } from './graph/workspace-tools.js';
export { CONFERENCE_TEMPLATE_NAMES, EVIDENCE_RULES, ROLE_TIERS, type ConferenceTemplateName, type EvidenceRule, type RoleTier } from './graph/conference-settings.js';
export { findExitNodes, findStartNodes } from './graph/terminals.js';
export { RESERVED_NODE_IDS, reservedNameOf, type ReservedNodeId } from './graph/reserved-node-ids.js';

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
export { MAX_NODE_ID_BYTES } from './lint/rules/node-id-length.js';
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
export { OUTPUT_FILES_RULE, checkOutputFiles } from './pipeline/output-files.js';
export { normalizeLabel, parseAccelerator, type Accelerator } from './graph/accelerator.js';
export { closest, editDistance } from './lint/edit-distance.js';
