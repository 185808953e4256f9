import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { directWriter } from '../src/io.js';

/** A child reading its stdin to the end (`cat`), or not reading at all (`sleep`), and the descriptor of the pipe to it. */
function pipeTo(command: string, args: string[]) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  const fd = (child.stdin as unknown as { _handle: { fd: number } })._handle.fd;
  let received = '';
  child.stdout.on('data', (b: Buffer) => (received += b.toString()));
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return { child, fd, closed, received: () => received };
}

/** A stand-in for the process's stream: what was written to it, in order. */
function recordingStream() {
  const chunks: string[] = [];
  return { chunks, stream: { write: (chunk: string | Uint8Array) => chunks.push(Buffer.from(chunk).toString()) } as unknown as NodeJS.WritableStream };
}

describe('direct output (validate writes to its descriptors without setting up streams)', () => {
  it('writes everything, in order, to a reader', async () => {
    const reader = pipeTo('cat', []);
    const { chunks, stream } = recordingStream();
    const write = directWriter(reader.fd, () => stream);
    write('one\n');
    write('two: ü\n');
    reader.child.stdin.end();
    await reader.closed;
    expect(reader.received()).toBe('one\ntwo: ü\n');
    expect(chunks).toEqual([]);
  });

  it('when the descriptor is full and non-blocking (EAGAIN), hands the rest and all later text to the stream, in order', async () => {
    const stalled = pipeTo('sleep', ['5']);
    const { chunks, stream } = recordingStream();
    const write = directWriter(stalled.fd, () => stream); // libuv made this pipe non-blocking
    const big = 'x'.repeat(4 * 1024 * 1024);
    write(big);
    write('after\n');
    stalled.child.kill();
    await stalled.closed;
    expect(chunks.length).toBe(2);
    expect(chunks[0]!.length).toBeGreaterThan(0);
    expect(chunks[0]!.length).toBeLessThan(big.length); // the pipe took the first part
    expect(chunks[1]).toBe('after\n');
  });

  it('when the reader went away (EPIPE), drops the text without an error', async () => {
    const gone = pipeTo('sh', ['-c', 'exec 0<&-; echo closed; exec sleep 5']); // closes its end of the pipe, then lingers
    await new Promise((resolve) => gone.child.stdout.once('data', resolve));
    const { chunks, stream } = recordingStream();
    const write = directWriter(gone.fd, () => stream);
    expect(() => {
      write('lost\n');
      write('lost too\n');
    }).not.toThrow();
    expect(chunks).toEqual([]);
    gone.child.kill();
    await gone.closed;
  });
});
