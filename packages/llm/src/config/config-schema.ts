import { CONFERENCE_TEMPLATE_NAMES, EVIDENCE_RULES, REASONING_EFFORTS, ROLE_TIERS } from '@orchestra/core/loader';
import { z } from 'zod';
import { argvField, booleanField, choiceField, durationField, envNameField, integerField, nameField, rangeField, urlField } from './config-fields.js';
import { PricesConfigSchema } from './prices.js';
import { PROVIDER_KINDS } from './built-in-providers.js';

/** How a node's LLM work runs: one chat call, a tool-calling agent, or a CLI agent subprocess. */
export const BACKENDS = ['chat', 'agent', 'cli'] as const;
/** One of {@link BACKENDS}. */
export type Backend = (typeof BACKENDS)[number];

/** Every tool the agent backend offers. */
export const AGENT_TOOLS = ['read_file', 'write_file', 'edit_file', 'list_files', 'search_text', 'run_command'] as const;
/** One of {@link AGENT_TOOLS}. */
export type AgentTool = (typeof AGENT_TOOLS)[number];
/** The tools an agent gets when nothing says otherwise (everything but `run_command`). */
export const DEFAULT_AGENT_TOOLS: readonly AgentTool[] = ['read_file', 'write_file', 'edit_file', 'list_files', 'search_text'];

/** The provider name orchestra knows without configuration. */
export const BUILT_IN_PROVIDER = 'openai';

/** Provider names: letters, digits, `_`, `.`, `-`. */
export const PROVIDER_NAME = /^[A-Za-z0-9_.-]+$/;

/** Nullable sections (`models:` with nothing under it) read as absent. */
const section = <T extends z.ZodType>(schema: T) => schema.nullish().transform((value) => value ?? undefined);

/** `providers.<name>`: an OpenAI-compatible endpoint. */
export const ProviderConfigSchema = z.strictObject({
  /** The API it speaks (default: the built-in provider's of the same name, else `openai`: any OpenAI-compatible server). */
  kind: choiceField(PROVIDER_KINDS).optional(),
  base_url: urlField.optional(),
  /** Name of the environment variable holding the key; `null` for servers that need no key. */
  api_key_env: envNameField.nullable().optional(),
  timeout: durationField.optional(),
  headers: section(z.record(z.string(), z.string({ error: 'expected a header value (a string)' }), { error: 'expected a mapping of header names to values' })).optional(),
}, { error: 'expected a mapping like { base_url: https://..., api_key_env: OPENAI_API_KEY }' });

/** `models.<alias>`: a name a pipeline may use in `llm_model` / `--model`. */
export const ModelAliasSchema = z.strictObject({
  model: nameField('a model id'),
  provider: nameField('a provider name').optional(),
  reasoning_effort: choiceField(REASONING_EFFORTS).optional(),
  temperature: rangeField(0, 2).optional(),
  max_tokens: integerField(1).optional(),
}, { error: 'expected a mapping like { model: gpt-5.2, provider: openai }' });

/** `defaults`: the model, provider and backend of stages that name none. */
export const DefaultsConfigSchema = z.strictObject({
  model: nameField('a model alias or id').optional(),
  provider: nameField('a provider name').optional(),
  backend: choiceField(BACKENDS).optional(),
}, { error: 'expected a mapping (model:, provider:, backend:)' });

/** `agent`: the tool-calling agent backend. */
export const AgentConfigSchema = z.strictObject({
  workspace: nameField('a directory path').optional(),
  max_turns: integerField(1).optional(),
  tools: z.array(choiceField(AGENT_TOOLS), { error: `expected a list of tools from ${AGENT_TOOLS.join(', ')}` }).optional(),
  command_timeout: durationField.optional(),
}, { error: 'expected a mapping (workspace:, max_turns:, tools:, command_timeout:)' });

/** `cli_agent`: the CLI-agent subprocess backend. */
export const CliAgentConfigSchema = z.strictObject({
  command: argvField.optional(),
  timeout: durationField.optional(),
}, { error: 'expected a mapping (command:, timeout:)' });

/** `interviewer`: how human questions are answered. */
export const InterviewerConfigSchema = z.strictObject({
  auto_approve: booleanField.optional(),
  timeout: durationField.optional(),
}, { error: 'expected a mapping (auto_approve:, timeout:)' });

/** `chat`: the conversational session (`orchestra chat`). */
export const ChatConfigSchema = z.strictObject({
  require_approval: booleanField.optional(),
  /** The session agent's model (alias or id), apart from the runs'. */
  model: nameField('a model alias or id').optional(),
}, { error: 'expected a mapping (require_approval:, model:)' });

/** `roles.<name>`: a role that takes part in conferences (`conference.roles`). */
export const RoleConfigSchema = z
  .strictObject({
    model: nameField('a model alias or id').optional(),
    contract: nameField('the role contract (its system prompt)').optional(),
    contract_file: nameField('a file holding the role contract').optional(),
    evidence: choiceField(EVIDENCE_RULES).optional(),
    tier: choiceField(ROLE_TIERS).optional(),
  }, { error: 'expected a mapping like { contract: "You are the critic...", evidence: receipt, tier: T3 }' })
  .refine((role) => (role.contract === undefined) !== (role.contract_file === undefined), { error: 'give the role exactly one of contract: (the text) and contract_file: (a file)' });

/** `conference`: settings of conference nodes. */
export const ConferenceConfigSchema = z.strictObject({
  templates: section(z.partialRecord(choiceField(CONFERENCE_TEMPLATE_NAMES), nameField('a template file path'), { error: `expected a mapping of template names (${CONFERENCE_TEMPLATE_NAMES.join(', ')}) to files` })).optional(),
}, { error: 'expected a mapping (templates:)' });

/** Role names: letters, digits, `_`, `-` (they become context keys `conference.<role>.status`). */
export const ROLE_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const roleNameKey = z.string().regex(ROLE_NAME, { error: 'role names start with a letter and use only letters, digits, _ and -' });

const providerNameKey = z.string().regex(PROVIDER_NAME, { error: 'provider names may use only letters, digits, _, . and -' });

/** The whole of one `orchestra.yaml` (every object strict: unknown keys are errors). */
export const OrchestraConfigSchema = z.strictObject({
  providers: section(z.record(providerNameKey, ProviderConfigSchema, { error: 'expected a mapping of provider names to settings' })).optional(),
  models: section(z.record(z.string(), ModelAliasSchema, { error: 'expected a mapping of aliases to model settings' })).optional(),
  defaults: section(DefaultsConfigSchema).optional(),
  agent: section(AgentConfigSchema).optional(),
  cli_agent: section(CliAgentConfigSchema).optional(),
  interviewer: section(InterviewerConfigSchema).optional(),
  chat: section(ChatConfigSchema).optional(),
  roles: section(z.record(roleNameKey, RoleConfigSchema, { error: 'expected a mapping of role names to role settings' })).optional(),
  conference: section(ConferenceConfigSchema).optional(),
  prices: section(PricesConfigSchema).optional(),
}, { error: 'expected a mapping of settings' });

/** `providers.<name>` after validation. */
export type ProviderConfig = z.output<typeof ProviderConfigSchema>;
/** `models.<alias>` after validation. */
export type ModelAlias = z.output<typeof ModelAliasSchema>;
/** `roles.<name>` after validation. */
export type RoleConfig = z.output<typeof RoleConfigSchema>;
/** A validated `orchestra.yaml` (or several, merged). Keys are as written (snake_case, durations as text). */
export type OrchestraConfig = z.output<typeof OrchestraConfigSchema>;
