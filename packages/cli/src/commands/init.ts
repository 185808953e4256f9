import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { escapeControl } from '@orchestra/core/loader';
import { pathProblem } from '@orchestra/core/handlers';
import { ExitCode } from '../exit-codes.js';
import { mergePackageJson, newPackageJson, type ReplaceRule } from '../init/package-json.js';
import { STARTER_CONFIG, STARTER_GITIGNORE, STARTER_PIPELINE, STARTER_TEST, writtenByInit, type StarterVersions } from '../init/starter-files.js';
import { CARRIED_LIBRARIES, cliPackageDir, packDirectory, type VendoredPackage } from '../init/vendored-packages.js';
import type { CliIO } from '../io.js';
import { shellCommand } from '../shell-quote.js';

/** The vitest range the starter project's `package.json` asks for (the one orchestra is tested with). */
export const STARTER_VITEST = '^4.1.12';

/** Flags of `orchestra init`. */
export interface InitCommandOptions {
  /** Overwrite the starter files that exist already (and differ from the starter's). */
  force?: boolean;
  /** The `@orchestra/core` dependency written to `package.json`, replacing any there (default: the copy this CLI carries, put in `vendor/`). */
  core?: string;
  /** The `@orchestra/cli` package put in `vendor/` (default: the running CLI's own; tests give a small one). */
  packageDir?: string;
}

/** One file `init` writes: its path in the project, the contents, and what the summary says of it. */
interface Planned {
  path: string;
  text: string | Buffer;
  note: string;
}

/** Files `init` owns: they are refused when they exist with other contents, and replaced with `--force`. */
const OWNED: readonly (readonly [path: string, text: string, note: string])[] = [
  ['pipeline.dot', STARTER_PIPELINE, 'plan → implement → human review, looping back on "Revise"'],
  ['orchestra.yaml', STARTER_CONFIG, 'model settings: a commented template'],
  [join('test', 'pipeline.test.ts'), STARTER_TEST, 'vitest: the pipeline with scripted answers and simulated LLM replies'],
];

/** What the summary says of each package put in `vendor/`. */
const VENDOR_NOTES: Record<string, string> = {
  '@orchestra/cli': 'the orchestra command of the scripts and of npx orchestra (until it is on the npm registry)',
  '@orchestra/core': 'the library the test imports (until it is on the npm registry)',
};

/** The tarballs `init` puts in `vendor/`, by file name; older ones it removes when nothing names them. */
const VENDORED_FILE = /^orchestra-(cli|core)-.+\.tgz$/;

/**
 * `orchestra init [dir] [--force] [--core <spec>]`: writes a starter project
 * into `dir` (default: the current directory; created if missing): a
 * pipeline, an `orchestra.yaml` template, a vitest test of the pipeline, a
 * `package.json` (an existing one gets the missing scripts and dev
 * dependencies, and dependencies an earlier `init` wrote are brought up to
 * date; nothing else changes), a `.gitignore` (an existing one gets the
 * missing lines), and in `vendor/` the tarballs of `@orchestra/cli` and
 * `@orchestra/core` this CLI carries, which `package.json` names by `file:`
 * path, so `npm install` needs no registry for orchestra's own packages.
 * Writes nothing and exits 2 when a starter file exists with other contents
 * (unless `--force`), when `dir` is not a directory, when `package.json` is
 * not a JSON object, or when this CLI carries no packages to vendor.
 */
export async function initCommand(dir: string | undefined, options: InitCommandOptions, io: CliIO): Promise<number> {
  const target = resolve(dir ?? '.');
  const shown = escapeControl(dir ?? '.');
  const fail = (message: string): number => {
    io.stderr(`orchestra: ${escapeControl(message)}; nothing was written\n`);
    return ExitCode.usage;
  };
  // A missing directory is created; anything else in the way is refused.
  const testDir = join(target, 'test');
  const vendorDir = join(target, 'vendor');
  for (const path of [target, testDir, vendorDir]) {
    const problem = pathProblem(path, { kind: 'directory', what: 'a directory' });
    if (problem && problem.reason !== 'missing') return fail(problem.message);
  }

  // The packages for vendor/: this CLI itself, and the @orchestra/core it carries (unless --core names another).
  const cliDir = options.packageDir ?? cliPackageDir();
  if (!cliDir) return fail('cannot find the @orchestra/cli package this orchestra runs from, to copy it into vendor/');
  const vendored: VendoredPackage[] = [];
  for (const from of [cliDir, ...(options.core === undefined ? [join(cliDir, CARRIED_LIBRARIES, 'core')] : [])]) {
    const packed = packDirectory(from);
    if (typeof packed === 'string') return fail(`cannot put orchestra's packages in vendor/: ${packed} (in a clone of orchestra, npx pnpm@10.34.8 build makes it)`);
    vendored.push(packed);
  }
  const spec = (name: string) => `file:vendor/${vendored.find((p) => p.name === name)?.file ?? ''}`;
  const versions: StarterVersions = { cli: spec('@orchestra/cli'), core: options.core ?? spec('@orchestra/core'), vitest: STARTER_VITEST };

  const planned: Planned[] = [];
  const existing: string[] = [];
  for (const [path, text, note] of OWNED) {
    const at = join(target, path);
    if (existsSync(at)) {
      const problem = pathProblem(at, { kind: 'file', what: 'a file' });
      if (problem) return fail(problem.message);
      // The starter's own file, as init wrote it, is no conflict: running init again changes nothing in it.
      if (readFileSync(at, 'utf8') === text) {
        planned.push({ path, text, note: 'unchanged' });
        continue;
      }
      existing.push(path);
    }
    planned.push({ path, text, note });
  }
  if (existing.length > 0 && !options.force) {
    return fail(`${existing.join(', ')} already ${existing.length === 1 ? 'exists' : 'exist'} in ${dir ?? '.'} (--force overwrites ${existing.length === 1 ? 'it' : 'them'})`);
  }
  for (const pkg of vendored) {
    const path = join('vendor', pkg.file);
    const problem = existsSync(join(target, path)) ? pathProblem(join(target, path), { kind: 'file', what: 'a file' }) : undefined;
    if (problem) return fail(problem.message);
    planned.push({ path, text: pkg.bytes, note: VENDOR_NOTES[pkg.name] ?? pkg.name });
  }

  const manifest = join(target, 'package.json');
  let manifestText: string;
  if (existsSync(manifest)) {
    const problem = pathProblem(manifest, { kind: 'file', what: 'a file' });
    if (problem) return fail(problem.message);
    // Replaced: a dependency an earlier init wrote (a vendored tarball, a range no registry has), and @orchestra/core when --core names it.
    const replace: ReplaceRule = (section, key, value) => section === 'devDependencies' && ((key === '@orchestra/core' && options.core !== undefined) || writtenByInit(key, value));
    const merged = mergePackageJson(readFileSync(manifest, 'utf8'), versions, replace);
    if (typeof merged === 'string') return fail(`${join(dir ?? '.', 'package.json')} ${merged}`);
    const parts = [merged.added.length > 0 ? `added ${merged.added.join(', ')}` : '', merged.replaced.length > 0 ? `replaced ${merged.replaced.join(', ')}` : ''].filter(Boolean);
    const kept = merged.kept.length > 0 ? `; kept your ${merged.kept.join(', ')}` : '';
    manifestText = merged.text;
    planned.push({ path: 'package.json', text: manifestText, note: `${parts.length > 0 ? parts.join('; ') : 'unchanged'}${kept}` });
  } else {
    manifestText = newPackageJson(basename(target), versions);
    const core = options.core === undefined ? '@orchestra/core (from vendor/)' : `@orchestra/core ${options.core}`;
    planned.push({ path: 'package.json', text: manifestText, note: `scripts test and validate; devDependencies @orchestra/cli (from vendor/), ${core}, vitest` });
  }

  const ignore = join(target, '.gitignore');
  if (existsSync(ignore)) {
    const problem = pathProblem(ignore, { kind: 'file', what: 'a file' });
    if (problem) return fail(problem.message);
    const text = readFileSync(ignore, 'utf8');
    const lines = new Set(text.split('\n').map((l) => l.trim()));
    const missing = STARTER_GITIGNORE.split('\n').filter((l) => l && !lines.has(l));
    if (missing.length > 0) planned.push({ path: '.gitignore', text: `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${missing.join('\n')}\n`, note: `added ${missing.join(' ')}` });
  } else {
    planned.push({ path: '.gitignore', text: STARTER_GITIGNORE, note: 'node_modules/ and run directories (.orchestra/)' });
  }

  // Tarballs of an earlier init that package.json no longer names go.
  const named = new Set(Object.values(dependencySpecs(manifestText)));
  const stale = existsSync(vendorDir)
    ? readdirSync(vendorDir).filter((name) => VENDORED_FILE.test(name) && !vendored.some((p) => p.file === name) && !named.has(`file:vendor/${name}`))
    : [];

  try {
    mkdirSync(testDir, { recursive: true });
    mkdirSync(vendorDir, { recursive: true });
    for (const file of planned) writeFileSync(join(target, file.path), file.text);
    for (const name of stale) rmSync(join(vendorDir, name), { force: true });
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    io.stderr(`orchestra: cannot write the starter project in ${shown}: ${escapeControl(e.code ? `${e.code}: ${e.message}` : e.message)}\n`);
    return ExitCode.usage;
  }
  for (const name of stale) planned.push({ path: join('vendor', name), text: '', note: 'removed: an earlier init put it there, and package.json no longer names it' });

  const width = Math.max(...planned.map((f) => f.path.length));
  const lines = [`created a starter project in ${escapeControl(target)}:`];
  for (const file of planned) lines.push(`  ${file.path.padEnd(width)}  ${escapeControl(file.note)}`);
  // Where to go: relative when the project is below here, else absolute.
  const below = relative(process.cwd(), target);
  const into = below.startsWith('..') || isAbsolute(below) ? target : below;
  // Each indented line is a command as it is, to paste (no comments: zsh would pass them to the command).
  lines.push('next: install (orchestra from vendor/, vitest from the npm registry), try the pipeline');
  lines.push('(simulated LLM replies; you answer the review), then run its tests (scripted answers, no model):');
  if (into !== '') lines.push(`  ${escapeControl(shellCommand(['cd', into]))}`);
  lines.push('  npm install');
  lines.push('  npx orchestra run pipeline.dot --simulate');
  lines.push('  npm test');
  io.stdout(`${lines.join('\n')}\n`);
  return ExitCode.ok;
}

/** Every dependency spec of a `package.json` text, by `section.name`. */
function dependencySpecs(text: string): Record<string, string> {
  const manifest = JSON.parse(text) as Record<string, unknown>;
  const specs: Record<string, string> = {};
  for (const section of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
    const deps = manifest[section];
    if (typeof deps !== 'object' || deps === null) continue;
    for (const [name, value] of Object.entries(deps)) if (typeof value === 'string') specs[`${section}.${name}`] = value;
  }
  return specs;
}
