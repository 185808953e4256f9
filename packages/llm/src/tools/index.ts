/**
 * The agent's workspace tools (LangChain tools confined to a directory, and
 * an unconfined, opt-in `run_command`), and the spec §9.7 tool hooks.
 * @module
 */
export { createWorkspaceTools, type WorkspaceToolsOptions } from './create-workspace-tools.js';
export { DEFAULT_WORKSPACE_TOOLS, WORKSPACE_TOOL_NAMES, type WorkspaceToolName } from './workspace-tool-names.js';
export { Workspace, isInside, showPath, type ResolveOptions } from './workspace.js';
export { ToolRefusal } from './tool-refusal.js';
export { MAX_READ_CHARS, MAX_READ_FILE_BYTES, readFileTool, readWorkspaceFile } from './read-file-tool.js';
export { writeFileTool, writeWorkspaceFile } from './write-file-tool.js';
export { editFileTool, editWorkspaceFile } from './edit-file-tool.js';
export { MAX_LIST_ENTRIES, listFilesTool, listWorkspaceFiles } from './list-files-tool.js';
export { MAX_SEARCH_FILE_BYTES, MAX_SEARCH_MATCHES, searchTextTool, searchWorkspaceText } from './search-text-tool.js';
export { MAX_COMMAND_OUTPUT_CHARS, formatCommandResult, runCommandTool, runWorkspaceCommand, type RunCommandOptions } from './run-command-tool.js';
export { SECRET_ENV_NAME, commandEnvironment } from './command-environment.js';
export {
  DEFAULT_HOOK_TIMEOUT_MS,
  MAX_HOOK_OUTPUT_CHARS,
  hooksFor,
  runToolHook,
  type HookedToolStatus,
  type ToolHookPhase,
  type ToolHookResult,
  type ToolHookRun,
  type ToolHooks,
} from './tool-hooks.js';
export { TOOL_HOOKS_FILE, ToolHookLog, type ToolHookRecord } from './tool-hook-log.js';
export { createToolHookGuard, type ToolHookGuardOptions } from './tool-hook-guard.js';
export type { PendingToolCall, ToolCallGuard } from './tool-call-guard.js';
