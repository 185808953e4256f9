/** Where the CLI writes; injectable so commands can be tested in-process. */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** The process's own streams. */
export const processIO: CliIO = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};
