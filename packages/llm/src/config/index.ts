/**
 * @orchestra/llm/config — `orchestra.yaml`: discovery, validation and
 * layering, and the per-node resolution of backend, model and provider that
 * reads it, without loading LangChain.
 * @packageDocumentation
 */
export { ConfigError, formatPosition, type ConfigPosition } from './config-error.js';
export { ModelConfigError, type ModelConfigErrorCode } from './model-config-error.js';
export {
  AGENT_TOOLS,
  AgentConfigSchema,
  BACKENDS,
  BUILT_IN_PROVIDER,
  CliAgentConfigSchema,
  DEFAULT_AGENT_TOOLS,
  DefaultsConfigSchema,
  InterviewerConfigSchema,
  ModelAliasSchema,
  OrchestraConfigSchema,
  PROVIDER_NAME,
  ProviderConfigSchema,
  type AgentTool,
  type Backend,
  type ModelAlias,
  type OrchestraConfig,
  type ProviderConfig,
} from './config-schema.js';
export { looksLikeApiKey } from './config-fields.js';
export { formatKeyPath, type KeyPath } from './key-path.js';
export type { Env } from './env.js';
export { CONFIG_FILE_NAMES, configSearchDirs, findConfigFiles, type ConfigSearch } from './discover-config.js';
export { parseConfigText, readConfigFile, type ConfigLayer } from './parse-config-file.js';
export { mergeConfigs } from './merge-config.js';
export { combineConfigLayers, emptyConfig, loadConfig, type LoadConfigOptions, type LoadedConfig } from './load-config.js';
export type { ModelFlags, ResolvedModel, ResolvedProvider } from './resolved-model.js';
export { OPENAI_API_KEY_ENV, OPENAI_BASE_URL_ENV, OPENAI_DEFAULT_BASE_URL } from './resolve-provider.js';
export { resolveModel, type ResolveModelInput } from './resolve-model.js';
export { CHAT_SESSION_NODE, resolveChatModel } from './chat-model.js';
export { configuredEndpoints, type ConfiguredEndpoint, type ConfiguredEndpointsInput } from './configured-endpoints.js';
export { describeResolution } from './describe-resolution.js';
export { maskKey } from './mask-key.js';
export { DEFAULT_COMMAND_TIMEOUT_MS, DEFAULT_MAX_TURNS, agentSettings, type AgentSettings } from './agent-settings.js';
export { DEFAULT_CLI_AGENT_TIMEOUT_MS, cliAgentSettings, type CliAgentSettings } from './cli-agent-settings.js';
export { chatSettings, interviewerSettings, type InterviewerSettings } from './interviewer-settings.js';
export { conferenceRoles, configuredTemplates, roleNames, unknownRoleMessage } from './conference-roles.js';
export { isKnownProvider, knownProviders } from './provider-names.js';
export { apiKeyValues, apiKeyVariables } from './api-key-variables.js';
export { priceOf, PricesConfigSchema, type ModelPrice, type PricesConfig } from './prices.js';
export { simulationWithRoles } from './simulated-roles.js';
