/** How much of a file's start is checked for NUL bytes (as git and grep do). */
const SNIFF_BYTES = 8000;

/** Whether bytes look like a binary file: a NUL byte near the start. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, SNIFF_BYTES).includes(0);
}
