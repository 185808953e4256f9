import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import type { JsonValue } from '@orchestra/core';
import type { ToolResult } from '@orchestra/core/handlers';

function refused(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { refused?: unknown }).refused === true;
}

/**
 * Tools that issue a receipt for every call: the result (or the error) is
 * recorded by `receipt` before the model sees it, and what the model sees
 * starts with `[receipt_id: rcpt_…]`, so the chief's transcript names the
 * receipts the roles will cite.
 */
export function withReceipts(tools: readonly StructuredToolInterface[], receipt: (result: ToolResult) => Promise<string>): StructuredToolInterface[] {
  return tools.map((original) =>
    tool(
      async (args: Record<string, unknown>, config) => {
        const call = { tool: original.name, arguments: JSON.parse(JSON.stringify(args ?? {})) as JsonValue };
        let output: unknown;
        try {
          output = await original.invoke(args, config);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          const id = await receipt({ ...call, status: refused(error) ? 'refused' : 'error', payload: message });
          // The agent loop tells the model the error (a refusal as it is): the receipt id goes with it.
          throw Object.assign(new Error(`[receipt_id: ${id}] ${message}`), refused(error) ? { refused: true } : {});
        }
        const payload = typeof output === 'string' ? output : JSON.stringify(output);
        const id = await receipt({ ...call, status: 'ok', payload });
        return `[receipt_id: ${id}]\n${payload}`;
      },
      { name: original.name, description: original.description, schema: original.schema as never },
    ) as StructuredToolInterface,
  );
}
