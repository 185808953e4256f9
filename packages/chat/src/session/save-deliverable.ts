import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { Workspace } from '@orchestra/llm/agent';
import type { SaveDeliverableInput } from './session-tools.js';

/**
 * `save_deliverable` (its parameters checked): copies an output into
 * `deliverablesDir` — the text given as `content`, or `from_run`'s file
 * (`{ id, file }`, the file confined to that run's directory, found by
 * `runDir`). The name is confined to `deliverablesDir`. Never throws: the
 * answer for the agent says what was saved, or why nothing was.
 */
export async function saveDeliverable(args: SaveDeliverableInput, deliverablesDir: string, runDir: (id: string) => Promise<string>): Promise<string> {
  try {
    const { name, from_run: from } = args;
    let content: string;
    if (args.content !== undefined) content = args.content;
    else if (from) content = readFileSync(new Workspace(await runDir(from.id)).resolve(from.file), 'utf8');
    else return 'save_deliverable refused: give content or from_run';
    const target = new Workspace(deliverablesDir).resolve(name, { write: true });
    writeFileSync(target, content);
    return `saved deliverables/${relative(deliverablesDir, target)} (${content.length} characters)`;
  } catch (error) {
    return `save_deliverable refused: ${error instanceof Error ? error.message : String(error)}`;
  }
}
