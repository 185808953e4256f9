import { Writable, type Readable } from 'node:stream';

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

/** The process's own streams. */
export const processIO: CliIO = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/** The input commands read: `io.stdin`, else the process's. */
export function inputOf(io: CliIO): Readable {
  return io.stdin ?? process.stdin;
}

/**
 * `io.stderr` as a stream, for what writes to one (the console asks its
 * questions there): the process's own stderr when `io` writes to it.
 */
export function stderrStreamOf(io: CliIO): Writable {
  if (io.stderr === processIO.stderr) return process.stderr;
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      io.stderr(String(chunk));
      callback();
    },
  });
}
