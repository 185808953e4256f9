/**
 * @orchestra/llm/agent — the pieces orchestra's backends are built from,
 * for an agent or a backend of your own: the agent loop and one streamed
 * model call, the agent's workspace tools and the spec §9.7 tool hooks,
 * context preambles and `full`-fidelity sessions, running a command in its
 * own process group, and the names of the stage files the backends write.
 * @packageDocumentation
 */

// The agent loop and one model call.
export { TOOL_CALLS_FILE, runAgentLoop, type AgentLoopOptions, type AgentLoopResult } from './backends/agent-loop.js';
export { callModel, type ChatRunnable, type ModelReply } from './backends/call-model.js';
export { CUT_OFF_CALL_RESULT, stoppedAtTokenLimit } from './backends/token-limit.js';
export { retryAfterFrom } from './errors/provider-error.js';

// A command-line agent's files.
export { AGENT_STDERR_FILE } from './backends/cli-invoke.js';
export { conversationTranscript } from './backends/cli-transcript.js';

// Preambles and sessions.
export { CHARS_PER_TOKEN, PREAMBLE_TOKEN_BUDGETS, buildPreamble, type PreambleInput, type PreambleMode } from './fidelity/preamble.js';
export { MAX_THREADS, MAX_THREAD_CHARS, compactHistory } from './fidelity/thread-sessions.js';
export { PREAMBLE_FILE, keepSession, startSession, type SessionRequest, type SessionStart } from './fidelity/stage-session.js';

// Workspace tools and tool hooks.
export * from './tools/index.js';

// Processes.
export { CappedOutput, runProcess, type ProcessResult, type RunProcessOptions } from './process/index.js';
