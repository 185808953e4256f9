import type { WorkspaceToolName } from '@orchestra/core/loader';
export { WORKSPACE_TOOL_NAMES, type WorkspaceToolName } from '@orchestra/core/loader';

/**
 * The tools an agent gets unless told otherwise: every file tool, but not
 * `run_command` (a shell is not confined to the workspace).
 */
export const DEFAULT_WORKSPACE_TOOLS: readonly WorkspaceToolName[] = ['read_file', 'write_file', 'edit_file', 'list_files', 'search_text'];
