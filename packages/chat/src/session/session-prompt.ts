import { SystemMessage } from '@langchain/core/messages';
import { ORCHESTRATOR_SECTION } from './orchestrator-section.js';
import type { ProjectWorkspace } from './project-workspace.js';

/** Who the session agent is, unless the session is given another identity. */
export const DEFAULT_IDENTITY = 'You are orchestra, an assistant that talks with a person about their project and runs pipelines for them.';

/** How the session agent works. */
export const BEHAVIOUR =
  'Be direct and brief. Say what you will do before doing it. Never invent results of runs: report what a run returned. When a run produced something the person should keep, save it into deliverables/ with save_deliverable (deliverables/ is the source of truth for outputs) and say where it is. Keep CONTEXT.md current with update_context when decisions are made.';

/**
 * The session agent's system prompt, rebuilt for every model call (so it
 * shows CONTEXT.md as it is now): the orchestrator section first, then who
 * the agent is, how it works, and the project workspace.
 */
export function sessionPrompt(workspace: ProjectWorkspace, identity: string = DEFAULT_IDENTITY): SystemMessage {
  const context = workspace.context().trim();
  return new SystemMessage(
    [
      ORCHESTRATOR_SECTION,
      `# Who you are\n\n${identity}`,
      `# How you work\n\n${BEHAVIOUR}`,
      `# The project workspace\n\nProject directory: ${workspace.dir}\nCONTEXT.md:\n${context || '(empty)'}`,
    ].join('\n\n'),
  );
}
