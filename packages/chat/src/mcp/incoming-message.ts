import {
  ClientRequestSchema,
  JSONRPCErrorResponseSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { describeIssues, type IssueLike } from './describe-issues.js';
import { JSONRPC_ERRORS, errorReply, type JsonRpcErrorReply } from './jsonrpc-error.js';

/**
 * What one line of input is: a message for the SDK's protocol handling, an
 * error to answer at once (JSON-RPC 2.0), or something to drop silently (a
 * malformed response: a response is never answered).
 */
export type Incoming = { message: JSONRPCMessage } | { reply: JsonRpcErrorReply } | { drop: string };

/** The SDK's schema of each request a client may send, by method (`tools/call` → its params schema). */
const REQUESTS = new Map<string, z.ZodType>(ClientRequestSchema.options.map((schema) => [schema.shape.method.value as string, schema as z.ZodType]));

/**
 * Reads one line as a JSON-RPC message, as the SDK's stdio transport would,
 * but answers what it cannot use instead of dropping it: not JSON →
 * `-32700`; a batch (array), a non-object, an object without `method` or
 * with a bad envelope → `-32600`; a known method whose `params` do not fit
 * its schema → `-32602`, with a message a person can read. The reply
 * carries the request's id when the message names a method and a usable id
 * (the client waits for it), else `null`.
 */
export function readIncoming(line: string): Incoming {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { reply: errorReply(null, JSONRPC_ERRORS.parseError, `Parse error: the line is not JSON (${(error as Error).message})`) };
  }
  if (Array.isArray(value)) return { reply: errorReply(null, JSONRPC_ERRORS.invalidRequest, 'Invalid Request: batches (JSON arrays) are not supported; send one JSON-RPC message per line') };
  if (value === null || typeof value !== 'object') return { reply: errorReply(null, JSONRPC_ERRORS.invalidRequest, `Invalid Request: a message must be a JSON object, not ${value === null ? 'null' : typeof value}`) };
  const object = value as Record<string, unknown>;

  if (!('method' in object)) {
    if ('result' in object || 'error' in object) {
      const response = ('error' in object ? JSONRPCErrorResponseSchema : JSONRPCResultResponseSchema).safeParse(object);
      return response.success ? { message: response.data } : { drop: `a malformed response was dropped: ${describeIssues(response.error.issues as IssueLike[], object)}` };
    }
    return { reply: errorReply(null, JSONRPC_ERRORS.invalidRequest, 'Invalid Request: the message has no "method"') };
  }

  const id = typeof object.id === 'string' || (typeof object.id === 'number' && Number.isFinite(object.id)) ? object.id : null;
  const envelope = ('id' in object ? JSONRPCRequestSchema : JSONRPCNotificationSchema).safeParse(object);
  if (!envelope.success) return { reply: errorReply(id, JSONRPC_ERRORS.invalidRequest, `Invalid Request: ${describeIssues(envelope.error.issues as IssueLike[], object)}`) };
  const method = String(object.method);
  const request = id !== null ? REQUESTS.get(method) : undefined;
  if (request) {
    const checked = request.safeParse({ method, ...(object.params !== undefined ? { params: object.params } : {}) });
    if (!checked.success) return { reply: errorReply(id, JSONRPC_ERRORS.invalidParams, `Invalid params for ${method}: ${describeIssues(checked.error.issues as IssueLike[], { params: object.params })}`) };
  }
  return { message: envelope.data as JSONRPCMessage };
}
