import { existsSync, readFileSync, realpathSync } from 'node:fs';

/** A directory the file-based cases write under, and what file system it is. */
export interface Place {
  /** `tmpfs` (/dev/shm) or `disk` (the project's disk). */
  name: 'tmpfs' | 'disk';
  /** Parent directory of the runs' directories and database files. */
  dir: string;
  /** The file system holding `dir`, e.g. `ext4 on /dev/vda (mounted at /)`. */
  fs: string;
}

/** Undoes the octal escapes of /proc/mounts (`\040` for a space). */
function unescapeMount(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/**
 * The file system a directory is on, from /proc/self/mounts (the longest
 * mount point that contains it, the last one mounted there winning); just
 * the path where there is no /proc.
 */
export function describeFileSystem(dir: string): string {
  let path: string;
  let mounts: string;
  try {
    path = realpathSync(dir);
    mounts = readFileSync('/proc/self/mounts', 'utf8');
  } catch {
    return 'unknown file system';
  }
  let best: { point: string; type: string; source: string; options: string } | undefined;
  for (const line of mounts.split('\n')) {
    const [source, point, type, options] = line.split(' ');
    if (!source || !point || !type) continue;
    const mountPoint = unescapeMount(point);
    const inside = mountPoint === '/' || path === mountPoint || path.startsWith(`${mountPoint}/`);
    if (inside && (!best || mountPoint.length >= best.point.length)) best = { point: mountPoint, type, source, options: options ?? '' };
  }
  if (!best) return 'unknown file system';
  const notable = best.options.split(',').filter((o) => o === 'discard' || o === 'sync' || o.startsWith('data=') || o === 'noatime');
  return `${best.type} on ${best.source} (mounted at ${best.point}${notable.length ? `; ${notable.join(', ')}` : ''})`;
}

/** The places the file-based cases run on: tmpfs (/dev/shm, when there is one) and the disk under `diskDir`. */
export function storePlaces(diskDir: string): Place[] {
  const places: Place[] = [];
  if (existsSync('/dev/shm')) places.push({ name: 'tmpfs', dir: '/dev/shm', fs: describeFileSystem('/dev/shm') });
  places.push({ name: 'disk', dir: diskDir, fs: describeFileSystem(diskDir) });
  return places;
}
