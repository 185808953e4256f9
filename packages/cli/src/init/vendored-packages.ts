import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipTarball, type TarEntry } from './tarball.js';

/**
 * Where, inside the CLI's package, the build puts the libraries the CLI
 * carries for `orchestra init` (scripts/carry-libraries.mjs): one directory
 * per library, its `package.json` and its `dist/`.
 */
export const CARRIED_LIBRARIES = join('dist', 'libraries');

/** A package `orchestra init` copies into a project's `vendor/`, as a tarball npm installs. */
export interface VendoredPackage {
  /** The package's name, such as `@orchestra/core`. */
  name: string;
  /** The tarball's file name, `orchestra-core-0.1.0-1a2b3c4d.tgz`: the end is a digest of its bytes. */
  file: string;
  bytes: Buffer;
}

type Manifest = Record<string, unknown>;

/**
 * The `package.json` of a package as its tarball has it: `publishConfig`'s
 * fields applied over the others (pnpm's rule), and what only the repository
 * needs dropped (`scripts`, `devDependencies`, `files`). Returns an error
 * message when a dependency is still a `workspace:` one.
 */
export function publishedManifest(manifest: Manifest): Manifest | string {
  const { publishConfig, scripts: _scripts, devDependencies: _dev, files: _files, ...rest } = manifest;
  const published: Manifest = { ...rest, ...(typeof publishConfig === 'object' && publishConfig !== null ? (publishConfig as Manifest) : {}) };
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    const deps = (published[field] ?? {}) as Record<string, unknown>;
    const local = Object.entries(deps).find(([, spec]) => String(spec).startsWith('workspace:'));
    if (local) return `${String(manifest.name)} depends on ${local[0]}@${String(local[1])}, which only this repository can resolve`;
  }
  return published;
}

/** Every string an `exports` map or a `bin` field points at. */
function targets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap(targets);
}

/** The files of `dir/dist`, as paths relative to `dir` with `/`, sorted; source maps and build info left out. */
function distFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string, prefix: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = `${prefix}/${entry.name}`;
      if (entry.isDirectory()) walk(join(at, entry.name), path);
      else if (entry.isFile() && !entry.name.endsWith('.map') && entry.name !== '.tsbuildinfo') found.push(path);
    }
  };
  if (existsSync(join(dir, 'dist'))) walk(join(dir, 'dist'), 'dist');
  return found.sort();
}

/**
 * Packs the package in `dir` (its `package.json`, published as
 * {@link publishedManifest} says, and its `dist/` without source maps) into
 * a tarball, as `npm pack` would. Returns an error message when the
 * directory holds no package, or a file its `bin` or `exports` names is
 * missing (a build that never ran).
 */
export function packDirectory(dir: string): VendoredPackage | string {
  const manifestPath = join(dir, 'package.json');
  if (!existsSync(manifestPath)) return `${manifestPath} is missing`;
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  } catch (error) {
    return `${manifestPath} is not valid JSON (${(error as Error).message})`;
  }
  const published = publishedManifest(manifest);
  if (typeof published === 'string') return published;
  const files = distFiles(dir);
  const missing = [...targets(published.bin), ...targets(published.exports)]
    .map((target) => target.replace(/^\.\//, ''))
    .find((target) => target !== 'package.json' && !files.includes(target));
  if (missing !== undefined) return `${join(dir, missing)} is missing`;
  const entries: TarEntry[] = [
    { path: 'package/package.json', data: Buffer.from(`${JSON.stringify(published, null, 2)}\n`) },
    ...files.map((file) => ({ path: `package/${file}`, data: readFileSync(join(dir, file)) })),
  ];
  const bytes = gzipTarball(entries);
  const name = String(published.name);
  const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 8);
  return { name, file: `${name.replace(/^@/, '').replace('/', '-')}-${String(published.version)}-${digest}.tgz`, bytes };
}

/** The directory of the running CLI's package (`@orchestra/cli`): the clone's `packages/cli`, or where npm installed it. */
export function cliPackageDir(from: string = fileURLToPath(import.meta.url)): string | undefined {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as Manifest).name === '@orchestra/cli') return dir;
      } catch {
        // not ours; keep looking
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}
