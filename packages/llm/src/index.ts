/**
 * @orchestra/llm — real models for orchestra's LLM stages: LangChain-backed
 * chat, agent and CLI-agent backends (each a `CodergenBackend` and a
 * `ConversationalBackend`), `orchestra.yaml` configuration and model
 * resolution, fidelity preambles and `full`-fidelity sessions, provider error
 * messages, and the agent's workspace tools and tool hooks.
 * @packageDocumentation
 */
export * from './config/index.js';

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
export { AgentTurnLimitError, TOOL_CALLS_FILE, runAgentLoop, type AgentLoopOptions, type AgentLoopResult } from './backends/agent-loop.js';
export { callModel, type ChatRunnable, type ModelReply } from './backends/call-model.js';
export {
  AGENT_STDERR_FILE,
  CliAgentError,
  CliAgentTimeoutError,
  conversationTranscript,
  createCliAgentBackend,
  type CliAgentBackend,
  type CliAgentBackendOptions,
} from './backends/cli-backend.js';
export * from './tools/index.js';
export { CappedOutput, ProcessStartError, runProcess, type ProcessResult, type RunProcessOptions } from './process/index.js';
export { ChatCompletionsOpenAI, DEFAULT_REQUEST_TIMEOUT_MS, createChatOpenAI } from './models/chat-openai.js';

export { LlmProviderError, describeProviderError, retryAfterFrom, type ProviderErrorCode, type ProviderTarget } from './errors/provider-error.js';
export { LLM_ERROR_CODES, type LlmErrorCode } from './errors/llm-error-codes.js';

export { CHARS_PER_TOKEN, PREAMBLE_TOKEN_BUDGETS, buildPreamble, type PreambleInput, type PreambleMode } from './fidelity/preamble.js';
export { MAX_THREADS, MAX_THREAD_CHARS, ThreadSessions, compactHistory } from './fidelity/thread-sessions.js';
export { PREAMBLE_FILE, keepSession, startSession, type SessionStart } from './fidelity/stage-session.js';
export * from './phases/index.js';
