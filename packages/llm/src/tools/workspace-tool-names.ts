/** Every workspace tool, in the order they are offered. */
export const WORKSPACE_TOOL_NAMES = ['read_file', 'write_file', 'edit_file', 'list_files', 'search_text', 'run_command'] as const;

/** The name of one workspace tool. */
export type WorkspaceToolName = (typeof WORKSPACE_TOOL_NAMES)[number];

/**
 * The tools an agent gets unless told otherwise: every file tool, but not
 * `run_command` (a shell is not confined to the workspace).
 */
export const DEFAULT_WORKSPACE_TOOLS: readonly WorkspaceToolName[] = ['read_file', 'write_file', 'edit_file', 'list_files', 'search_text'];
