import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { escapeControl, pathProblem } from '@orchestra/core';
import { ExitCode } from '../exit-codes.js';
import { mergePackageJson, newPackageJson } from '../init/package-json.js';
import { STARTER_CONFIG, STARTER_GITIGNORE, STARTER_PIPELINE, STARTER_TEST, type StarterVersions } from '../init/starter-files.js';
import type { CliIO } from '../io.js';
import { shellCommand } from '../shell-quote.js';
import { CLI_VERSION } from '../version.js';

/** The vitest range the starter project's `package.json` asks for (the one orchestra is tested with). */
export const STARTER_VITEST = '^4.1.12';

/** Flags of `orchestra init`. */
export interface InitCommandOptions {
  /** Overwrite the starter files that exist already. */
  force?: boolean;
  /** The `@orchestra/core` dependency written to `package.json` (default `^<version>`). */
  core?: string;
}

/** One file `init` writes: its path in the project, the text, and what the summary says of it. */
interface Planned {
  path: string;
  text: string;
  note: string;
}

/** Files `init` owns: they are refused when they exist, and replaced with `--force`. */
const OWNED: readonly (readonly [path: string, text: string, note: string])[] = [
  ['pipeline.dot', STARTER_PIPELINE, 'plan → implement → human review, looping back on "Revise"'],
  ['orchestra.yaml', STARTER_CONFIG, 'model settings: a commented template'],
  [join('test', 'pipeline.test.ts'), STARTER_TEST, 'vitest: the pipeline with scripted answers and simulated LLM replies'],
];

/**
 * `orchestra init [dir] [--force] [--core <spec>]`: writes a starter project
 * into `dir` (default: the current directory; created if missing): a
 * pipeline, an `orchestra.yaml` template, a vitest test of the pipeline, a
 * `package.json` (an existing one gets the missing scripts and dev
 * dependencies, nothing else changes) and a `.gitignore` (an existing one
 * gets the missing lines). Writes nothing and exits 2 when a starter file
 * exists (unless `--force`), when `dir` is not a directory, or when
 * `package.json` is not a JSON object.
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
  for (const path of [target, testDir]) {
    const problem = pathProblem(path, { kind: 'directory', what: 'a directory' });
    if (problem && problem.reason !== 'missing') return fail(problem.message);
  }

  const versions: StarterVersions = { core: options.core ?? `^${CLI_VERSION}`, vitest: STARTER_VITEST };
  const planned: Planned[] = [];
  const existing: string[] = [];
  for (const [path, text, note] of OWNED) {
    const at = join(target, path);
    if (existsSync(at)) {
      const problem = pathProblem(at, { kind: 'file', what: 'a file' });
      if (problem) return fail(problem.message);
      existing.push(path);
    }
    planned.push({ path, text, note });
  }
  if (existing.length > 0 && !options.force) {
    return fail(`${existing.join(', ')} already ${existing.length === 1 ? 'exists' : 'exist'} in ${dir ?? '.'} (--force overwrites ${existing.length === 1 ? 'it' : 'them'})`);
  }

  const manifest = join(target, 'package.json');
  if (existsSync(manifest)) {
    const problem = pathProblem(manifest, { kind: 'file', what: 'a file' });
    if (problem) return fail(problem.message);
    const merged = mergePackageJson(readFileSync(manifest, 'utf8'), versions);
    if (typeof merged === 'string') return fail(`${join(dir ?? '.', 'package.json')} ${merged}`);
    const kept = merged.kept.length > 0 ? `; kept your ${merged.kept.join(', ')}` : '';
    const note = merged.added.length > 0 ? `added ${merged.added.join(', ')}${kept}` : `unchanged${kept}`;
    planned.push({ path: 'package.json', text: merged.text, note });
  } else {
    planned.push({ path: 'package.json', text: newPackageJson(basename(target), versions), note: `scripts test and validate; @orchestra/core ${versions.core}, vitest` });
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

  try {
    mkdirSync(testDir, { recursive: true });
    for (const file of planned) writeFileSync(join(target, file.path), file.text);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    io.stderr(`orchestra: cannot write the starter project in ${shown}: ${escapeControl(e.code ? `${e.code}: ${e.message}` : e.message)}\n`);
    return ExitCode.usage;
  }

  const width = Math.max(...planned.map((f) => f.path.length));
  const lines = [`created a starter project in ${escapeControl(target)}:`];
  for (const file of planned) lines.push(`  ${file.path.padEnd(width)}  ${escapeControl(file.note)}`);
  // Where to go: relative when the project is below here, else absolute.
  const below = relative(process.cwd(), target);
  const into = below.startsWith('..') || isAbsolute(below) ? target : below;
  lines.push('next:');
  if (into !== '') lines.push(`  ${escapeControl(shellCommand(['cd', into]))}`);
  lines.push('  orchestra run pipeline.dot --simulate     # try it: simulated LLM replies, you answer the review');
  lines.push('  npm install && npm test                   # its tests: vitest, scripted answers, no model');
  io.stdout(`${lines.join('\n')}\n`);
  return ExitCode.ok;
}
