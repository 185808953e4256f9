import type { StructuredToolInterface } from '@langchain/core/tools';

/**
 * Whether a tool only reads (it changes nothing the run or the world keeps):
 * its LangChain metadata says `readOnly: true`, as `read_file`, `list_files`
 * and `search_text` do and a library's research tools may
 * (`tool(fn, { name, schema, metadata: { readOnly: true } })`). The Discuss
 * phase of a phased node offers only such tools.
 */
export function isReadOnlyTool(tool: StructuredToolInterface): boolean {
  return (tool as { metadata?: Record<string, unknown> }).metadata?.readOnly === true;
}
