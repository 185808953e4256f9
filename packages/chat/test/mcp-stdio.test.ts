import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { RunLauncher, createMcpServer, serveStdio, type StdioServing } from '../src/index.js';

/** `orchestra mcp`'s stdio serving in-process: raw lines in, every line out read back as JSON. */

interface Reply {
  jsonrpc: string;
  id: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

async function serve(options: { maxLineBytes?: number } = {}) {
  const launcher = new RunLauncher({ projectDir: mkdtempSync(join(tmpdir(), 'orchestra-mcp-stdio-')), simulate: true });
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const replies: Reply[] = [];
  let raw = '';
  stdout.on('data', (chunk: Buffer) => {
    raw += chunk.toString('utf8');
    const lines = raw.split('\n');
    raw = lines.pop() ?? '';
    // Everything on stdout is protocol: each line one JSON-RPC message.
    for (const line of lines) replies.push(JSON.parse(line) as Reply);
  });
  const serving: StdioServing = await serveStdio(createMcpServer(launcher), stdin, stdout, options);
  stop = async () => {
    await serving.close();
    await launcher.close();
  };
  /** Waits for the next reply (fails after 5 s). */
  const next = async (): Promise<Reply> => {
    for (let i = 0; i < 500 && replies.length === 0; i += 1) await new Promise((r) => setTimeout(r, 10));
    const reply = replies.shift();
    expect(reply, 'a reply').toBeDefined();
    return reply as Reply;
  };
  const send = (line: string) => stdin.write(`${line}\n`);
  const request = (id: number, method: string, params?: unknown) => send(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) }));
  request(0, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
  expect((await next()).result?.serverInfo).toMatchObject({ name: 'orchestra' });
  send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
  /** The connection still works: a ping is answered. */
  const alive = async (id: number) => {
    request(id, 'ping');
    expect(await next()).toEqual({ jsonrpc: '2.0', id, result: {} });
  };
  return { stdin, send, request, next, alive, replies, stdout };
}

describe('orchestra mcp on stdio: malformed input', () => {
  it('answers a line that is not JSON with a parse error (id null), and goes on serving', async () => {
    const { send, next, alive } = await serve();
    send('this is not json');
    expect(await next()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error: the line is not JSON/) } });
    send('{"jsonrpc":"2.0","id":1,"method":"ping"');
    expect(await next()).toMatchObject({ id: null, error: { code: -32700 } });
    await alive(2);
  });

  it('answers batches, non-objects and objects without a method with invalid request (id null)', async () => {
    const { send, next, alive } = await serve();
    send('[{"jsonrpc":"2.0","id":1,"method":"ping"}]');
    expect(await next()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/batches \(JSON arrays\) are not supported/) } });
    send('[]');
    expect(await next()).toMatchObject({ id: null, error: { code: -32600 } });
    send('42');
    expect(await next()).toMatchObject({ id: null, error: { code: -32600, message: 'Invalid Request: a message must be a JSON object, not number' } });
    send('{"jsonrpc":"2.0","id":7}');
    expect(await next()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: the message has no "method"' } });
    await alive(3);
  });

  it('answers a request with a bad envelope with invalid request under its own id, in words', async () => {
    const { send, request, next, alive } = await serve();
    request(11, 'tools/call', null);
    expect(await next()).toEqual({ jsonrpc: '2.0', id: 11, error: { code: -32600, message: 'Invalid Request: params must be an object, not null' } });
    send('{"jsonrpc":"2.0","id":null,"method":"ping"}');
    expect(await next()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: id must be a string or a number, not null' } });
    send('{"id":12,"method":"ping"}');
    expect(await next()).toEqual({ jsonrpc: '2.0', id: 12, error: { code: -32600, message: 'Invalid Request: jsonrpc is missing (it must be "2.0")' } });
    await alive(13);
  });

  it('tools/call with arguments null gets invalid params with a readable message, not zod\'s JSON', async () => {
    const { request, next, alive } = await serve();
    request(8, 'tools/call', { name: 'list_runs', arguments: null });
    const reply = await next();
    expect(reply).toEqual({ jsonrpc: '2.0', id: 8, error: { code: -32602, message: 'Invalid params for tools/call: params.arguments must be an object, not null' } });
    request(9, 'tools/call', { name: 'launch_run', arguments: ['task'] });
    expect((await next()).error?.message).toBe('Invalid params for tools/call: params.arguments must be an object, not an array');
    // Well-formed calls still reach the tools.
    request(10, 'tools/call', { name: 'list_runs', arguments: {} });
    expect(await next()).toMatchObject({ id: 10, result: { structuredContent: { runs: [] } } });
    await alive(14);
  });

  it('drops a malformed response without answering it (a response is never answered)', async () => {
    const { send, alive } = await serve();
    send('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}');
    // The ping's answer is the next line: nothing was sent back for the response.
    await alive(1);
  });

  it('answers a 12 MB line with an error instead of closing, and serves the lines after it', async () => {
    const { stdin, request, next, alive } = await serve();
    const huge = Buffer.alloc(12 * 1024 * 1024, 'a');
    // As a pipe delivers it: 64 KiB at a time, the next request in the same chunk as its end.
    for (let at = 0; at < huge.length; at += 65536) stdin.write(huge.subarray(at, at + 65536));
    stdin.write('\n');
    expect(await next()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: a line longer than 4194304 bytes was skipped; send smaller messages' } });
    await alive(1);
    stdin.write(Buffer.concat([huge, Buffer.from('\n')]));
    expect(await next()).toMatchObject({ id: null, error: { code: -32600 } });
    request(2, 'tools/call', { name: 'list_runs', arguments: {} });
    expect(await next()).toMatchObject({ id: 2, result: { structuredContent: { runs: [] } } });
  });

  it('takes its line limit from the options', async () => {
    const { send, next, alive } = await serve({ maxLineBytes: 200 });
    send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { pad: 'x'.repeat(300) } } }));
    expect((await next()).error?.message).toMatch(/longer than 200 bytes/);
    await alive(2);
  });
});
