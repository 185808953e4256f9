/**
 * @orchestra/llm — real models for orchestra's LLM stages: the
 * LangChain-backed backends (each a `CodergenBackend` and a
 * `ConversationalBackend`) chosen per node from `orchestra.yaml` as the CLI
 * does (`createModelBackend`), or built from a model of your own (chat,
 * agent, CLI agent, your own routing); reading `orchestra.yaml`; the
 * `ChatOpenAI` client; and the errors a model call ends with.
 *
 * The other entry points: `@orchestra/llm/config` (all of `orchestra.yaml`
 * and model resolution, without LangChain), `@orchestra/llm/config-files`
 * (finding the files, without the YAML parser), `@orchestra/llm/agent` (the
 * pieces the backends are built from: the agent loop, workspace tools, tool
 * hooks, preambles and sessions, processes) and `@orchestra/llm/phases`
 * (phased stages and artifact validation). docs/library.md documents every
 * export of each.
 * @packageDocumentation
 */

// The backends.
export { createModelBackend, type ModelBackend, type ModelBackendOptions } from './backends/model-backend.js';
export {
  DEFAULT_SYSTEM_PROMPT,
  createChatBackend,
  createLangChainBackend,
  type ChatBackendOptions,
  type LangChainBackendOptions,
  type StageModel,
  type StageTools,
} from './backends/langchain-backend.js';
export { createAgentBackend, type AgentBackendOptions } from './backends/agent-backend.js';
export { createCliAgentBackend, type CliAgentBackend, type CliAgentBackendOptions } from './backends/cli-backend.js';
export { ThreadSessions } from './fidelity/thread-sessions.js';
export { ChatCompletionsOpenAI, DEFAULT_REQUEST_TIMEOUT_MS, createChatOpenAI } from './models/chat-openai.js';
export { createChatModel } from './models/create-chat-model.js';

// Cassettes: recorded model traffic (the recorder and player are in @orchestra/core).
export { replayCassette, type ReplayCassetteOptions, type ReplayCassetteResult } from './cassette/replay-cassette.js';
export { CassetteChatModel, type CassetteModelTarget } from './cassette/cassette-chat-model.js';
export { cassetteTools } from './cassette/cassette-tools.js';

// orchestra.yaml (the rest of it is on @orchestra/llm/config).
export { emptyConfig, loadConfig, type LoadConfigOptions, type LoadedConfig } from './config/load-config.js';
export { resolveModel, type ResolveModelInput } from './config/resolve-model.js';
export type { ModelFlags, ResolvedModel, ResolvedProvider } from './config/resolved-model.js';
export type { OrchestraConfig } from './config/config-schema.js';
export type { Env } from './config/env.js';

// Errors.
export { LlmProviderError, describeProviderError, type ProviderErrorCode, type ProviderTarget } from './errors/provider-error.js';
export { LLM_ERROR_CODES, type LlmErrorCode } from './errors/llm-error-codes.js';
export { ConfigError } from './config/config-error.js';
export { ModelConfigError, type ModelConfigErrorCode } from './config/model-config-error.js';
export { CliAgentError, CliAgentTimeoutError } from './backends/cli-agent-error.js';
export { AgentTurnLimitError } from './backends/agent-loop.js';
export { ProcessStartError } from './process/process-start-error.js';
