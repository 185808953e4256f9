import { gzipSync } from 'node:zlib';

/** One regular file of a tarball: its path inside the archive and its bytes. */
export interface TarEntry {
  path: string;
  data: Buffer;
}

/**
 * Every entry's modification time, 1985-10-26T08:15:00Z: the date npm gives
 * the files of a packed tarball, so the same files always make the same bytes.
 */
const MTIME = 499162500;
const BLOCK = 512;

/** Writes `value` into `header` at `offset` as NUL-padded ASCII of at most `length` bytes. */
function put(header: Buffer, offset: number, length: number, value: string): void {
  header.write(value, offset, length, 'ascii');
}

/** An octal number field: `length - 1` digits and a NUL. */
function octal(header: Buffer, offset: number, length: number, value: number): void {
  put(header, offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
}

/** Splits a path into ustar's name (≤ 100 bytes) and prefix (≤ 155 bytes), at a slash. */
function splitName(path: string): { name: string; prefix: string } {
  if (Buffer.byteLength(path) <= 100) return { name: path, prefix: '' };
  for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) {
    const prefix = path.slice(0, at);
    const name = path.slice(at + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { name, prefix };
  }
  throw new Error(`cannot put ${path} in a tarball: the path is too long`);
}

/** The 512-byte ustar header of a regular file (mode 0644, owner 0, the fixed time). */
function header(entry: TarEntry): Buffer {
  const block = Buffer.alloc(BLOCK);
  const { name, prefix } = splitName(entry.path);
  put(block, 0, 100, name);
  octal(block, 100, 8, 0o644);
  octal(block, 108, 8, 0);
  octal(block, 116, 8, 0);
  octal(block, 124, 12, entry.data.length);
  octal(block, 136, 12, MTIME);
  put(block, 148, 8, ' '.repeat(8)); // the checksum counts its own field as spaces
  put(block, 156, 1, '0');
  put(block, 257, 6, 'ustar\0');
  put(block, 263, 2, '00');
  put(block, 345, 155, prefix);
  let sum = 0;
  for (const byte of block) sum += byte;
  put(block, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

/**
 * A gzipped ustar archive of regular files, in the order given: what npm,
 * pnpm and yarn install from a `file:` tarball. Deterministic: the same
 * entries give the same bytes (fixed times, modes and owners). Throws when
 * a path does not fit ustar's name fields.
 */
export function gzipTarball(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(header(entry), entry.data);
    const padding = (BLOCK - (entry.data.length % BLOCK)) % BLOCK;
    if (padding > 0) parts.push(Buffer.alloc(padding));
  }
  parts.push(Buffer.alloc(BLOCK * 2)); // the end of the archive
  return gzipSync(Buffer.concat(parts), { level: 9 });
}
