import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { readIncoming } from './incoming-message.js';
import { JSONRPC_ERRORS, errorReply, type JsonRpcErrorReply } from './jsonrpc-error.js';
import { LineSplitter, MAX_LINE_BYTES } from './line-splitter.js';

/** Options of {@link LineTransport}. */
export interface LineTransportOptions {
  /** The longest line read, in bytes (default {@link MAX_LINE_BYTES}). */
  maxLineBytes?: number;
}

/**
 * An MCP transport over a pair of byte streams carrying one JSON-RPC
 * message per line (MCP's stdio transport). It does what the SDK's
 * `StdioServerTransport` does, and also answers input it cannot use, as
 * JSON-RPC 2.0 asks, instead of dropping it or closing: a line that is not
 * JSON, a batch, an object that is not a request, bad `params` (see
 * {@link readIncoming}), and a line longer than the limit (skipped, and the
 * lines after it read as usual). Blank lines are skipped. Messages are
 * handled by the SDK's protocol layer; only those error replies are
 * written here, and everything written is protocol.
 */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly splitter: LineSplitter;
  private started = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    options: LineTransportOptions = {},
  ) {
    this.splitter = new LineSplitter(options.maxLineBytes ?? MAX_LINE_BYTES);
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('LineTransport already started');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
  }

  send(message: JSONRPCMessage | JsonRpcErrorReply): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    // Stop reading only when nobody else reads the stream.
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    for (const piece of this.splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) {
      if ('overlong' in piece) {
        this.answer(errorReply(null, JSONRPC_ERRORS.invalidRequest, `Invalid Request: a line longer than ${piece.overlong} bytes was skipped; send smaller messages`));
        continue;
      }
      if (piece.line.trim() === '') continue;
      const incoming = readIncoming(piece.line);
      if ('message' in incoming) this.onmessage?.(incoming.message);
      else if ('reply' in incoming) this.answer(incoming.reply);
      else this.onerror?.(new Error(incoming.drop));
    }
  };

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  private answer(reply: JsonRpcErrorReply): void {
    this.onerror?.(new Error(reply.error.message));
    this.send(reply).catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
  }
}
