/**
 * orchestra's conversational layer: `launch_run` (one implementation for
 * the chat session and the MCP server), the run-mode templates, and the
 * MCP server.
 * @packageDocumentation
 */
export { CoordinationOverridesSchema, LaunchRunInputSchema, MAX_AGENTS, MAX_STAGE_RETRIES, MAX_VOTING_ROUNDS, RUN_MODES, runModeOf, type CoordinationOverrides, type LaunchRunInput, type RunMode } from './runs/launch-run-input.js';
export { DEFAULT_AGENT_COUNT, quoted, runModePipeline, type TemplateOptions } from './runs/run-mode-templates.js';
export { LaunchError, RUN_DESCRIPTION_FILE, RunLauncher, parseLaunchRunInput, type LaunchErrorCode, type PreparedRun, type RunLauncherOptions } from './runs/run-launcher.js';
export { CHAT_ERROR_CODES, type ChatErrorCode } from './chat-error-codes.js';
export { MAX_CONTEXT_CHARS, MAX_FILES_PER_DIRECTORY, readContextPaths } from './runs/project-files.js';
export type { RunResult } from './runs/run-result.js';
export { ORCHESTRATOR_SECTION } from './session/orchestrator-section.js';
export { MCP_SERVER_NAME, MCP_TOOLS, ORCHESTRATE_PROMPT, createMcpServer, type OrchestraMcpServerOptions } from './mcp/mcp-server.js';
export { serveStdio, type StdioServing } from './mcp/stdio.js';
export { LineTransport, type LineTransportOptions } from './mcp/line-transport.js';
export { MAX_LINE_BYTES } from './mcp/line-splitter.js';
export { AnswerQuestionInputSchema, McpLaunchRunInputSchema, RunIdInputSchema, RunListSchema, RunResultSchema } from './mcp/tool-schemas.js';
export { IllegalTransitionError, SESSION_STATES, SESSION_TRANSITIONS, SessionMachine, legalEvents, type EventsOf, type SessionEvent, type SessionState, type SessionTransition } from './session/session-machine.js';
export { FilepathsSchema, ProjectWorkspace } from './session/project-workspace.js';
export { SESSION_FORMAT, SessionRecordSchema, readSessionRecord, writeSessionRecord, type SessionRecord } from './session/session-store.js';
export { conversationTurns, type ConversationTurn } from './session/conversation-turns.js';
export { InteractiveSession, type InteractiveSessionOptions } from './session/interactive-session.js';
export type { SessionEvents } from './session/session-events.js';
export { MAX_CALLS_PER_TURN } from './session/agent-turn.js';
export { describeProposal } from './session/run-approval.js';
