/**
 * Every workspace tool an agent or a conference's chief may be given, in
 * the order they are offered (`@orchestra/llm` implements them; lint checks
 * `agent.tools` and `conference.tools` against this list).
 */
export const WORKSPACE_TOOL_NAMES = ['read_file', 'write_file', 'edit_file', 'list_files', 'search_text', 'run_command'] as const;

/** The name of one workspace tool. */
export type WorkspaceToolName = (typeof WORKSPACE_TOOL_NAMES)[number];
