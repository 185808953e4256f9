import type { StructuredToolInterface } from '@langchain/core/tools';
import type { ProcessLedger } from '@orchestra/core/handlers';
import { editFileTool } from './edit-file-tool.js';
import { listFilesTool } from './list-files-tool.js';
import { readFileTool } from './read-file-tool.js';
import { runCommandTool } from './run-command-tool.js';
import { searchTextTool } from './search-text-tool.js';
import { WORKSPACE_TOOL_NAMES, type WorkspaceToolName } from './workspace-tool-names.js';
import { Workspace } from './workspace.js';
import { writeFileTool } from './write-file-tool.js';

/** What {@link createWorkspaceTools} builds. */
export interface WorkspaceToolsOptions {
  /** The workspace directory: file tools are confined to it; `run_command` starts in it. */
  root: string;
  /** The tools to build, in this order (duplicates are built once). */
  tools: readonly WorkspaceToolName[];
  /** Longest one `run_command` may run, in milliseconds. */
  commandTimeoutMs: number;
  /** The environment `run_command` starts from (default `process.env`); secrets are always removed. */
  env?: NodeJS.ProcessEnv;
  /** More environment variable names to remove for `run_command` (for example the configured providers' key variables). */
  scrubEnv?: readonly string[];
  /** Where `run_command` records each command's process group before it runs (the stage's, in a run). */
  processes?: ProcessLedger;
}

/**
 * The agent's workspace tools as LangChain tools. The file tools (`read_file`,
 * `write_file`, `edit_file`, `list_files`, `search_text`) are confined to
 * `root`: paths outside it, or leading out of it through symbolic links, are
 * refused with a `ToolRefusal`. `run_command` is **not** confined (a shell
 * can do anything the process can), which is why it is off by default (see
 * `DEFAULT_WORKSPACE_TOOLS`). Every tool honours the `signal` of the call's
 * run config. Throws for an unknown tool name.
 */
export function createWorkspaceTools(options: WorkspaceToolsOptions): StructuredToolInterface[] {
  const workspace = new Workspace(options.root);
  const tools: StructuredToolInterface[] = [];
  const seen = new Set<WorkspaceToolName>();
  for (const name of options.tools) {
    if (seen.has(name)) continue;
    seen.add(name);
    tools.push(build(name, workspace, options));
  }
  return tools;
}

function build(name: WorkspaceToolName, workspace: Workspace, options: WorkspaceToolsOptions): StructuredToolInterface {
  switch (name) {
    case 'read_file':
      return readFileTool(workspace);
    case 'write_file':
      return writeFileTool(workspace);
    case 'edit_file':
      return editFileTool(workspace);
    case 'list_files':
      return listFilesTool(workspace);
    case 'search_text':
      return searchTextTool(workspace);
    case 'run_command':
      return runCommandTool({
        cwd: workspace.root,
        commandTimeoutMs: options.commandTimeoutMs,
        ...(options.env ? { env: options.env } : {}),
        ...(options.scrubEnv ? { scrubEnv: options.scrubEnv } : {}),
        ...(options.processes ? { processes: options.processes } : {}),
      });
    default:
      throw new Error(`unknown workspace tool ${JSON.stringify(name)}; the tools are: ${WORKSPACE_TOOL_NAMES.join(', ')}`);
  }
}
