import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import * as z from 'zod';
import { isReadOnlyTool } from '../tools/read-only-tool.js';

/** The tool that ends Discuss: the model says it has what the artifact needs. */
export const READY_TOOL = 'ready_to_summarize';

/** The `ready_to_summarize` tool: its call ends Discuss. */
export const readyTool = tool(async () => 'Noted. The discussion ends here.', {
  name: READY_TOOL,
  description: 'Call when the discussion has produced everything the structured result needs.',
  schema: z.object({}),
});

/**
 * The tools a Discuss phase offers: of the stage's tools, the read-only ones
 * (`read_file`, `list_files`, `search_text`, and a library's tools whose
 * metadata says `readOnly: true`), then `ready_to_summarize`. Discuss
 * researches; it never writes.
 */
export function discussTools(tools: readonly StructuredToolInterface[] = []): StructuredToolInterface[] {
  return [...tools.filter(isReadOnlyTool), readyTool];
}
