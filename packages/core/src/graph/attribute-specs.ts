import type { ValueType } from './values.js';

/** Where an attribute is written. */
export type AttributeScope = 'graph' | 'node' | 'edge';

/** The declared type and default of an attribute the engine reads. */
export interface AttributeSpec {
  name: string;
  scope: AttributeScope;
  type: ValueType;
  /** Default as written in docs (`""`, `0`, `node id`, `inherited`, ...). */
  default: string;
  /** Allowed values, when the set is closed. */
  values?: readonly string[];
  description: string;
}

/** Fidelity modes (spec §5.4). */
export const FIDELITY_MODES = ['full', 'truncate', 'compact', 'summary:low', 'summary:medium', 'summary:high'] as const;

/** Retry policy presets (spec §3.6), selectable with `retry_policy` / `default_retry_policy`. */
export const RETRY_POLICY_NAMES = ['none', 'standard', 'aggressive', 'linear', 'patient'] as const;

/** LLM stage backends (`agent.backend`, an orchestra extension). */
export const AGENT_BACKENDS = ['chat', 'agent', 'cli'] as const;

/** Reasoning effort levels (spec §2.6). */
export const REASONING_EFFORTS = ['low', 'medium', 'high'] as const;

const spec = (
  scope: AttributeScope,
  name: string,
  type: ValueType,
  def: string,
  description: string,
  values?: readonly string[],
): AttributeSpec => (values ? { name, scope, type, default: def, values, description } : { name, scope, type, default: def, description });

/**
 * Every attribute of spec Appendix A with its type and default. The
 * `attribute_value` lint rule checks typed values against it and the DOT
 * reference in `docs/` is written from it.
 */
export const ATTRIBUTE_SPECS: readonly AttributeSpec[] = [
  spec('graph', 'goal', 'string', '""', 'Goal of the pipeline; `$goal` in prompts expands to it; mirrored into the context as `graph.goal`.'),
  spec('graph', 'label', 'string', '""', 'Display name of the graph.'),
  spec('graph', 'model_stylesheet', 'string', '""', 'CSS-like rules that set `llm_model`, `llm_provider`, `reasoning_effort`, `agent.backend` per node.'),
  spec('graph', 'default_max_retries', 'integer', '0', 'Retries for nodes that omit `max_retries`.'),
  spec('graph', 'default_max_retry', 'integer', '0', 'Legacy alias of `default_max_retries`.'),
  spec('graph', 'default_max_visits', 'integer', '100', 'Most times any node may run in one run, for nodes that omit `max_visits`; `0`: no limit (orchestra extension).'),
  spec('graph', 'default_retry_policy', 'string', 'unset', 'Retry preset for nodes that set neither `retry_policy` nor `max_retries` (orchestra extension).', RETRY_POLICY_NAMES),
  spec('graph', 'retry_target', 'string', '""', 'Node to jump to when the exit is reached with unsatisfied goal gates.'),
  spec('graph', 'fallback_retry_target', 'string', '""', 'Second choice when `retry_target` is missing or invalid.'),
  spec('graph', 'default_fidelity', 'string', '""', 'Default context fidelity mode; empty means unset (runtime fallback `compact`).', FIDELITY_MODES),
  spec('graph', 'thread_id', 'string', '""', 'Default thread for nodes under `full` fidelity that name none (spec §5.4 "graph-level default thread").'),
  spec('graph', 'stack.child_dotfile', 'string', '""', 'Child pipeline file for a supervisor loop.'),
  spec('graph', 'stack.child_workdir', 'string', 'cwd', 'Working directory of the child pipeline.'),
  spec('graph', 'tool_hooks.pre', 'string', '""', 'Shell command run before each agent tool call; non-zero exit skips the call (spec §9.7).'),
  spec('graph', 'tool_hooks.post', 'string', '""', 'Shell command run after each agent tool call (spec §9.7).'),

  spec('node', 'label', 'string', 'node id', 'Display name; the prompt when `prompt` is empty.'),
  spec('node', 'shape', 'string', 'box', 'Graphviz shape; decides the handler unless `type` is set.'),
  spec('node', 'type', 'string', '""', 'Explicit handler type; wins over the shape.'),
  spec('node', 'prompt', 'string', '""', 'Instruction for the stage; `$goal` expands to the graph goal.'),
  spec('node', 'max_retries', 'integer', 'inherited', 'Retries after the first attempt (`3` means up to 4 runs).'),
  spec('node', 'pipeline', 'string', '""', 'The pipeline file a `type="pipeline"` node runs, relative to this pipeline\'s file (orchestra extension).'),
  spec('node', 'pipeline.inputs', 'string', '""', 'Context keys copied into the sub-pipeline\'s context, comma-separated (orchestra extension).'),
  spec('node', 'pipeline.outputs', 'string', '""', 'Context keys copied back from the sub-pipeline\'s final context, comma-separated (orchestra extension).'),
  spec('node', 'stack.child_dotfile', 'string', 'graph\'s', 'Child pipeline of this manager node; overrides the graph attribute.'),
  spec('node', 'stack.child_autostart', 'boolean', 'true', 'Whether the manager starts its child; `false` supervises a child run already in its stage.'),
  spec('node', 'manager.poll_interval', 'duration', '45s', 'Time between two observation cycles of a manager node (woken early when the child ends).'),
  spec('node', 'manager.max_cycles', 'integer', '1000', 'Most observation cycles before the manager node fails.'),
  spec('node', 'manager.stop_condition', 'string', '""', 'Condition over the `stack.child.*` keys (and the context) that ends the manager with success.'),
  spec('node', 'manager.actions', 'string', 'observe,wait', 'What each cycle does: `observe`, `steer`, `wait`, comma-separated.'),
  spec('node', 'manager.instruction', 'string', '""', 'What `steer` writes into the child\'s active stage as `steer.md` (orchestra extension).'),
  spec('node', 'max_visits', 'integer', 'inherited', 'Most times this node may run in one run (retries do not count); past it the run fails as a runaway loop. `0`: no limit (orchestra extension).'),
  spec('node', 'retry_policy', 'string', 'unset', 'Retry preset: attempts and backoff (`max_retries` still sets the attempts). Orchestra extension.', RETRY_POLICY_NAMES),
  spec('node', 'goal_gate', 'boolean', 'false', 'The node must succeed (or partially) before the pipeline may exit.'),
  spec('node', 'retry_target', 'string', '""', 'Node to jump to when this node fails after its retries.'),
  spec('node', 'fallback_retry_target', 'string', '""', 'Second choice of retry target.'),
  spec('node', 'fidelity', 'string', 'inherited', 'Context fidelity mode for the node\'s LLM session.', FIDELITY_MODES),
  spec('node', 'thread_id', 'string', 'derived', 'Session key for LLM session reuse under `full` fidelity.'),
  spec('node', 'class', 'string', '""', 'Comma-separated class names for the model stylesheet.'),
  spec('node', 'timeout', 'duration', 'unset', 'Longest the node may run (`250ms`, `900s`, `15m`, `2h`, `1d`).'),
  spec('node', 'llm_model', 'string', 'inherited', 'Model identifier; the stylesheet may supply it.'),
  spec('node', 'llm_provider', 'string', 'auto-detected', 'Provider key; the stylesheet may supply it.'),
  spec('node', 'reasoning_effort', 'string', 'unset', 'Reasoning depth. Sent to the model only when set here, by the stylesheet or by a model alias (the spec\'s default `high` would be refused by models without reasoning).', REASONING_EFFORTS),
  spec('node', 'auto_status', 'boolean', 'false', 'When the handler writes no status, record SUCCESS.'),
  spec('node', 'agent.mode', 'string', 'single', 'LLM stage: `single` (one call) or `interactive` (a conversation with the human, ended by `/done`, `/approve` or `/reject`). On a phased stage, how its Discuss phase runs; unset there, `run -i` / `-I` or the terminal check decides. Orchestra extension.', ['single', 'interactive']),
  spec('node', 'agent.backend', 'string', 'configured', 'LLM stage backend: `chat` (one model call, streamed), `agent` (a tool-calling loop over workspace tools) or `cli` (a configured command such as `claude -p`). The stylesheet may set it; `--backend` overrides it for one run; unset, `defaults.backend` in orchestra.yaml applies, else `chat`. Orchestra extension.', AGENT_BACKENDS),
  spec('node', 'agent.max_turns', 'integer', '20', 'Agent backend: most model calls in one stage (or one conversation turn) before it stops. Orchestra extension.'),
  spec('node', 'agent.tools', 'string', 'configured', 'Agent backend: comma-separated workspace tools (`read_file`, `write_file`, `edit_file`, `list_files`, `search_text`, `run_command`). Orchestra extension.'),
  spec('node', 'conference.roles', 'string', '""', 'Conference node (`type="conference"`): comma-separated roles (defined under `roles:` in orchestra.yaml) that answer the question. Orchestra extension.'),
  spec('node', 'conference.tools', 'string', 'read_file,list_files,search_text', 'Conference node: the only workspace tools its chief may call (the engine gives it no others). Orchestra extension.'),
  spec('node', 'conference.require_tool', 'boolean', 'true', 'Conference node: the chief must call a tool first; a reply without one is sent back once, then the stage fails. Orchestra extension.'),
  spec('node', 'conference.max_chief_turns', 'integer', '8', 'Conference node: most model calls of its chief. Orchestra extension.'),
  spec('node', 'conference.quorum', 'integer', '1', 'Conference node: how many roles must answer (grounded) for the stage to succeed. Orchestra extension.'),
  spec('node', 'output.schema', 'string', 'unset', 'Phased LLM stage: the output schema, a JSON Schema file (relative to the pipeline\'s directory) or `zod:<name>` for one a library registered. The stage then runs Discuss → Summarize → Serialize and its result is the validated artifact. Orchestra extension.'),
  spec('node', 'output.checks', 'string', 'unset', 'Phased LLM stage: a JSON file of declared semantic checks (references, coverage, unique, disjoint, counts) run on the artifact. Orchestra extension.'),
  spec('node', 'output.validators', 'string', 'unset', 'Phased LLM stage: comma-separated names of semantic validators a library registered. Orchestra extension.'),
  spec('node', 'response.key', 'string', 'unset', 'LLM stage: a context key that gets the whole response (`last_response` holds only its first 200 characters), for later prompts to quote as `{{key}}`. Orchestra extension.'),
  spec('node', 'output.key', 'string', '<node>.output', 'Phased LLM stage: the context key the artifact goes to. Orchestra extension.'),
  spec('node', 'output.tool', 'string', 'submit_<node>', 'Phased LLM stage: the name of the finalization tool the model calls with the artifact. Orchestra extension.'),
  spec('node', 'output.sections', 'string', 'unset', 'Phased LLM stage: comma-separated top-level properties of the output schema (all of them), which Serialize then submits one at a time, each with its own tool `<output.tool>_<section>`; a failed check sends back only the sections at fault. Orchestra extension.'),
  spec('node', 'validation_retries', 'integer', '3', 'Phased LLM stage: calls of the finalization tool after the first that a failed validation may cost (with `output.sections`: failed validations of a section or of the whole artifact). Orchestra extension.'),
  spec('node', 'max_discuss_turns', 'integer', '1 / 10', 'Phased LLM stage: most turns of the Discuss phase, a turn ending when the model replies without a tool call (or calls `ready_to_summarize`): default 1 in a direct Discuss, 10 agent replies in an interactive one, after which it ends as with `/done`. Orchestra extension.'),
  spec('node', 'max_tool_rounds', 'integer', '10', 'Phased LLM stage: most tool round-trips (a reply calling tools, then their results) in one Discuss turn; then the model is told to answer, with only `ready_to_summarize` left. `0`: no research tools. Orchestra extension.'),
  spec('node', 'discuss.llm_model', 'string', 'inherited', 'Phased LLM stage: the model of the Discuss phase instead of the node\'s; the stylesheet may supply it. Orchestra extension.'),
  spec('node', 'discuss.llm_provider', 'string', 'inherited', 'Phased LLM stage: the provider of the Discuss phase instead of the node\'s; the stylesheet may supply it. Orchestra extension.'),
  spec('node', 'summarize.llm_model', 'string', 'inherited', 'Phased LLM stage: the model of the Summarize phase instead of the node\'s; the stylesheet may supply it. Orchestra extension.'),
  spec('node', 'summarize.llm_provider', 'string', 'inherited', 'Phased LLM stage: the provider of the Summarize phase instead of the node\'s; the stylesheet may supply it. Orchestra extension.'),
  spec('node', 'serialize.llm_model', 'string', 'inherited', 'Phased LLM stage: the model of the Serialize phase instead of the node\'s; the stylesheet may supply it. Orchestra extension.'),
  spec('node', 'serialize.llm_provider', 'string', 'inherited', 'Phased LLM stage: the provider of the Serialize phase instead of the node\'s; the stylesheet may supply it. Orchestra extension.'),
  spec('node', 'tool_hooks.pre', 'string', '""', 'Shell command run before each of this node\'s tool calls (overrides the graph\'s); non-zero exit skips the call.'),
  spec('node', 'tool_hooks.post', 'string', '""', 'Shell command run after each of this node\'s tool calls (overrides the graph\'s).'),
  spec('node', 'human.timeout', 'duration', 'unset', 'Human gate or interactive stage: how long to wait for an answer.'),
  spec('node', 'human.default_choice', 'string', '""', 'Human gate: the choice (key, label or target id) taken when the wait times out.'),
  spec('node', 'human.input', 'string', 'choice', 'Human gate: `choice` (pick an outgoing edge) or `freeform` (free text into `human.gate.text`).', ['choice', 'freeform']),
  spec('node', 'join_policy', 'string', 'wait_all', 'Parallel fan-out: `wait_all` or `first_success`.', ['wait_all', 'first_success']),
  spec('node', 'max_parallel', 'integer', '4', 'Parallel fan-out: branches run at once.'),
  spec('node', 'fan_in.votes', 'string', 'unset', 'Fan-in: comma-separated context keys holding votes (`VOTE: <branch id>`, from earlier stages); the branch most votes name is picked, a tie by outcome then declaration order. Orchestra extension.'),
  spec('node', 'allow_partial', 'boolean', 'false', 'Accept PARTIAL_SUCCESS when retries are exhausted.'),

  spec('edge', 'label', 'string', '""', 'Caption and routing key (preferred-label matching).'),
  spec('edge', 'condition', 'string', '""', 'Guard expression (`outcome=success && context.x=y`).'),
  spec('edge', 'weight', 'integer', '0', 'Priority among eligible edges; higher wins.'),
  spec('edge', 'fidelity', 'string', 'unset', 'Fidelity mode for the target node; highest precedence.', FIDELITY_MODES),
  spec('edge', 'thread_id', 'string', 'unset', 'Thread id for the target node.'),
  spec('edge', 'loop_restart', 'boolean', 'false', 'Restart the run with a fresh log directory when taken.'),
];

const BY_KEY = new Map(ATTRIBUTE_SPECS.map((s) => [`${s.scope}:${s.name}`, s]));

/** The spec of an attribute in a scope, if orchestra knows it. */
export function findAttributeSpec(scope: AttributeScope, name: string): AttributeSpec | undefined {
  return BY_KEY.get(`${scope}:${name}`);
}
