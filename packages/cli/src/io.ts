import { writeSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';

/** Where the CLI reads and writes; injectable so commands can be tested in-process. */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /**
   * Standard input: what the console asks a run's questions from, and the
   * messages of `orchestra chat`. The process's own when absent.
   */
  stdin?: Readable;
}

/** The process's stdout or stderr. */
type StandardStream = 'stdout' | 'stderr';

const guarded = new Set<StandardStream>();

/**
 * The process's `stdout` or `stderr` stream, made to leave quietly when its
 * reader goes away (`orchestra ... | head`): node reports that as an EPIPE
 * error on the stream, which is no error worth a stack trace. Asking for a
 * stream sets it up (for a pipe, node's net and stream modules): only what
 * writes through it asks.
 */
export function standardStream(name: StandardStream): NodeJS.WriteStream {
  const stream = process[name];
  if (!guarded.has(name)) {
    guarded.add(name);
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  return stream;
}

/** Sets up both streams as {@link standardStream} does, for commands whose code writes to `process.stdout` or `process.stderr` itself. */
export function guardStandardStreams(): void {
  standardStream('stdout');
  standardStream('stderr');
}

/** The process's own streams. */
export const processIO: CliIO = {
  stdout: (text) => standardStream('stdout').write(text),
  stderr: (text) => standardStream('stderr').write(text),
};

/** The input commands read: `io.stdin`, else the process's. */
export function inputOf(io: CliIO): Readable {
  return io.stdin ?? process.stdin;
}

/**
 * `io.stderr` as a stream, for what writes to one (the console asks its
 * questions there): the process's own stderr when `io` writes to it.
 * (`node:stream` is loaded only here, not at start-up.)
 */
export async function stderrStreamOf(io: CliIO): Promise<Writable> {
  if (io.stderr === processIO.stderr) return standardStream('stderr');
  const { Writable } = await import('node:stream');
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      io.stderr(String(chunk));
      callback();
    },
  });
}

/**
 * Writes to file descriptor `fd` at once with `writeSync`, without setting up
 * a stream for it: a command that only prints (`validate`) starts faster. A
 * reader that went away (EPIPE) gets nothing more, and the command still ends
 * with its own exit code. When the descriptor cannot take more now (EAGAIN:
 * it is non-blocking, as a stream of this or another process may have made
 * it), the rest and everything after go to `stream()`, in order.
 */
export function directWriter(fd: number, stream: () => NodeJS.WritableStream): (text: string) => void {
  let mode: 'direct' | 'stream' | 'gone' = 'direct';
  return (text) => {
    if (mode === 'gone') return;
    if (mode === 'stream') {
      stream().write(text);
      return;
    }
    const bytes = Buffer.from(text);
    let written = 0;
    try {
      while (written < bytes.length) written += writeSync(fd, bytes, written);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') {
        mode = 'gone';
        return;
      }
      if (code !== 'EAGAIN') throw error;
      mode = 'stream';
      stream().write(bytes.subarray(written));
    }
  };
}

/** The process's stdout and stderr written directly ({@link directWriter}): for commands whose code writes nowhere else. */
export function directProcessIO(): CliIO {
  return { stdout: directWriter(1, () => standardStream('stdout')), stderr: directWriter(2, () => standardStream('stderr')) };
}
