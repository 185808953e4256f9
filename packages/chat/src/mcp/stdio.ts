import type { Readable, Writable } from 'node:stream';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LineTransport, type LineTransportOptions } from './line-transport.js';

/** An MCP server connected to stdin and stdout. */
export interface StdioServing {
  /** Resolves (with why) once the client is gone: stdin ended or closed, or the transport closed. */
  ended: Promise<string>;
  /** Disconnects (stdin is no longer read). */
  close(): Promise<void>;
}

/**
 * Serves `server` over stdio (newline-delimited JSON-RPC, through a
 * {@link LineTransport}: malformed and over-long lines are answered with
 * JSON-RPC errors and the connection goes on): everything it writes to
 * `stdout` is protocol, so nothing else may write there.
 */
export async function serveStdio(server: McpServer, stdin: Readable = process.stdin, stdout: Writable = process.stdout, options: LineTransportOptions = {}): Promise<StdioServing> {
  const transport = new LineTransport(stdin, stdout, options);
  let resolveEnded: (why: string) => void = () => {};
  const ended = new Promise<string>((resolve) => (resolveEnded = resolve));
  const onEnd = () => resolveEnded('stdin ended');
  const onClose = () => resolveEnded('stdin closed');
  stdin.once('end', onEnd);
  stdin.once('close', onClose);
  server.server.onclose = () => resolveEnded('the connection closed');
  await server.connect(transport);
  return {
    ended,
    close: async () => {
      stdin.off('end', onEnd);
      stdin.off('close', onClose);
      await server.close();
    },
  };
}
