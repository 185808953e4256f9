/*
 * The attribute names of the spans createRunTracing makes (docs/tracing.md):
 * `orchestra.*` for the run's own, and those of OpenTelemetry's GenAI
 * semantic conventions (written out: the semantic-conventions package is not
 * a dependency).
 */

/** The run's id (its run directory's name). */
export const RUN_ID = 'orchestra.run.id';
/** Where the run is kept (its run directory). */
export const RUN_LOCATION = 'orchestra.run.location';
export const RUN_RESUMED = 'orchestra.run.resumed';
export const RUN_START_NODE = 'orchestra.run.start_node';
/** How the run (or this process's part of it) ended: a stage status, `fail`, `interrupted`, `parked`, `restarted` or `abandoned`. */
export const RUN_STATUS = 'orchestra.run.status';
export const RUN_NODES_RUN = 'orchestra.run.nodes_run';
export const RUN_RETRIES = 'orchestra.run.retries';
export const RUN_STOP_REASON = 'orchestra.run.stop_reason';
export const RUN_RESTARTED_TO = 'orchestra.run.restarted_to';
export const PARKED_NODE_ID = 'orchestra.run.parked_node';
/** On a child run's span: the run and node that started it. */
export const PARENT_RUN_ID = 'orchestra.parent.run.id';
export const PARENT_NODE_ID = 'orchestra.parent.node.id';
export const LINK_REASON = 'orchestra.link.reason';
export const PIPELINE = 'orchestra.pipeline';
export const NODE_ID = 'orchestra.node.id';
export const NODE_LABEL = 'orchestra.node.label';
export const NODE_HANDLER = 'orchestra.node.handler';
export const STAGE_INDEX = 'orchestra.stage.index';
export const STAGE_ATTEMPT = 'orchestra.stage.attempt';
export const STAGE_STATUS = 'orchestra.stage.status';
export const STAGE_WILL_RETRY = 'orchestra.stage.will_retry';
export const FAILURE_REASON = 'orchestra.failure_reason';
export const BRANCH_ID = 'orchestra.branch.id';
export const BRANCH_INDEX = 'orchestra.branch.index';
export const ROLE = 'orchestra.conference.role';
export const ROLE_TIER = 'orchestra.conference.tier';
export const ROLE_STATUS = 'orchestra.conference.role_status';
export const LLM_PHASE = 'orchestra.llm.phase';
export const LLM_TURN = 'orchestra.llm.turn';
export const TOOL_STATUS = 'orchestra.tool.status';
export const TOOL_DETAIL = 'orchestra.tool.detail';
/** Tokens summed over a stage's or a run's calls (the model spans carry the GenAI ones). */
export const USAGE_INPUT_TOKENS = 'orchestra.usage.input_tokens';
export const USAGE_OUTPUT_TOKENS = 'orchestra.usage.output_tokens';
export const USAGE_TOTAL_TOKENS = 'orchestra.usage.total_tokens';
export const USAGE_COST = 'orchestra.usage.cost';
export const USAGE_COST_CURRENCY = 'orchestra.usage.cost_currency';

export const GEN_AI_OPERATION = 'gen_ai.operation.name';
export const GEN_AI_PROVIDER = 'gen_ai.provider.name';
/** The name older versions of the conventions (and some back ends) read instead of `gen_ai.provider.name`. */
export const GEN_AI_SYSTEM = 'gen_ai.system';
export const GEN_AI_REQUEST_MODEL = 'gen_ai.request.model';
export const GEN_AI_RESPONSE_MODEL = 'gen_ai.response.model';
export const GEN_AI_INPUT_TOKENS = 'gen_ai.usage.input_tokens';
export const GEN_AI_OUTPUT_TOKENS = 'gen_ai.usage.output_tokens';
export const GEN_AI_TOOL_NAME = 'gen_ai.tool.name';
export const GEN_AI_TOOL_CALL_ID = 'gen_ai.tool.call.id';
export const ERROR_TYPE = 'error.type';
