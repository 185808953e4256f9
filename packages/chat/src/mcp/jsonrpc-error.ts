/** The JSON-RPC 2.0 error codes the stdio transport answers malformed input with. */
export const JSONRPC_ERRORS = {
  /** The line is not JSON. */
  parseError: -32700,
  /** JSON, but not a request: an array (batch), not an object, no `method`, a bad envelope, a line over the limit. */
  invalidRequest: -32600,
  /** A request whose `params` do not fit its method. */
  invalidParams: -32602,
} as const;

/** A JSON-RPC error response; `id` is null when the request's id cannot be known. */
export interface JsonRpcErrorReply {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
}

/** An error response to send back. */
export function errorReply(id: string | number | null, code: number, message: string): JsonRpcErrorReply {
  return { jsonrpc: '2.0', id, error: { code, message } };
}
