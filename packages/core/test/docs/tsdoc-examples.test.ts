import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import ts from 'typescript';
import { afterAll, describe, expect, it, vi } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SRC = join(ROOT, 'packages/core/src');

/** The exports whose TSDoc must show an `@example` (docs/library.md sends readers to them). */
const REQUIRED = ['loadPipeline', 'runPipeline', 'resumePipeline', 'RunSupervisor', 'FileRunCatalogue', 'Handler', 'QueueInterviewer', 'RunEvent', 'isOrchestraError'];

/** Examples docs/library.md shows as they are: a change to one must reach the page. */
const SHOWN_IN_LIBRARY_DOC = ['RunSupervisor', 'FileRunCatalogue'];

interface Example {
  /** The declaration the TSDoc comment belongs to. */
  name: string;
  /** Where it is, for messages. */
  where: string;
  /** The example's code. */
  code: string;
  /** What it prints: the comment lines after its `// Prints:` line. */
  prints: string[];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The name declared right after a TSDoc comment: an exported declaration, or an interface or class member. */
const DECLARED = /^\s*(?:export\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function|class|interface|type|const|let)?\s*(\w+)/;

/** Every `@example` of a TSDoc comment in the files, with the fenced `ts` code under it. */
function examplesIn(files: readonly string[]): Example[] {
  const examples: Example[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\/\*\*([\s\S]*?)\*\/\s*\n([^\n]*)/g)) {
      const comment = (match[1] as string).split('\n').map((line) => line.replace(/^\s*\* ?/, ''));
      const at = comment.findIndex((line) => line.trim() === '@example');
      if (at === -1) continue;
      const open = comment.indexOf('```ts', at);
      const close = comment.indexOf('```', open + 1);
      const code = comment.slice(open + 1, close);
      const printsAt = code.findIndex((line) => line.trim() === '// Prints:');
      const line = text.slice(0, match.index).split('\n').length;
      examples.push({
        name: DECLARED.exec(match[2] as string)?.[1] ?? '?',
        where: `${relative(ROOT, file)}:${line}`,
        code: code.join('\n'),
        prints: printsAt === -1 ? [] : code.slice(printsAt + 1).map((l) => l.replace(/^\s*\/\/ ?/, '')),
      });
    }
  }
  return examples;
}

/** Where each `@orchestra/<package>[/<entry>]` specifier leads: the entry's source file, from the package's `exports`. */
function entrySources(): Map<string, string> {
  const sources = new Map<string, string>();
  for (const dir of readdirSync(join(ROOT, 'packages'))) {
    let manifest: { name: string; exports?: Record<string, { import?: string }> };
    try {
      manifest = JSON.parse(readFileSync(join(ROOT, 'packages', dir, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      if (target.import?.endsWith('.ts')) sources.set(subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`, join(ROOT, 'packages', dir, target.import));
    }
  }
  return sources;
}

/** Packages `@orchestra/core` depends on (an example may import them, as its users have them), resolved from core. */
const CORE_MANIFEST = join(ROOT, 'packages/core/package.json');
const coreDependencies = new Set(Object.keys((JSON.parse(readFileSync(CORE_MANIFEST, 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {}));
const fromCore = createRequire(CORE_MANIFEST);

/** The example as a module of its own: its `@orchestra/*` imports point at the workspace's sources, core's dependencies at core's copies. */
function asModule(example: Example, sources: Map<string, string>): string {
  return example.code.replace(/from '([^']+)'/g, (_, specifier: string) => {
    if (specifier.startsWith('node:')) return `from '${specifier}'`;
    if (coreDependencies.has(specifier)) return `from '${fromCore.resolve(specifier)}'`;
    const source = sources.get(specifier);
    if (!source) throw new Error(`${example.where}: the example imports ${specifier}, which is neither node:, a dependency of @orchestra/core nor an @orchestra entry point`);
    return `from '${source}'`;
  });
}

const examples = examplesIn(sourceFiles(SRC));
const sources = entrySources();
const work = mkdtempSync(join(tmpdir(), 'tsdoc-examples-'));
const files = examples.map((example, i) => {
  const file = join(work, `${i}-${example.name}.mts`);
  writeFileSync(file, asModule(example, sources));
  return file;
});

describe('TSDoc examples of @orchestra/core', () => {
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('each export docs/library.md points to has an @example', () => {
    expect(REQUIRED.filter((name) => !examples.some((e) => e.name === name))).toEqual([]);
  });

  it.each(SHOWN_IN_LIBRARY_DOC.map((name) => [name] as const))('docs/library.md shows the example of %s as it is', (name) => {
    const library = readFileSync(join(ROOT, 'docs/library.md'), 'utf8');
    const blocks = [...library.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
    expect(blocks).toContain(`${examples.find((e) => e.name === name)?.code}\n`);
  });

  it('type-check, strict, against the sources', () => {
    const config = ts.parseJsonConfigFileContent(
      { extends: join(ROOT, 'tsconfig.base.json'), compilerOptions: { noEmit: true, allowImportingTsExtensions: true, noUnusedLocals: false }, files },
      ts.sys,
      ROOT,
    );
    const program = ts.createProgram({ rootNames: files, options: config.options });
    const problems = files.flatMap((file) => {
      const source = program.getSourceFile(file);
      return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((d) => {
        const example = examples[files.indexOf(file)] as Example;
        const line = d.start !== undefined && d.file ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
        return `${example.name} (${example.where}), line ${line} of the example: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
      });
    });
    expect(problems).toEqual([]);
  }, 60_000);

  it.each(examples.map((example, i) => [example.name, example.where, i] as const))('%s (%s) runs and prints what it says', async (_, __, i) => {
    const example = examples[i] as Example;
    expect(example.prints.length, 'an example ends with a // Prints: block').toBeGreaterThan(0);
    const printed: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(...format(...args).split('\n')));
    try {
      await import(files[i] as string);
    } finally {
      log.mockRestore();
    }
    expect(printed).toEqual(example.prints);
  }, 30_000);
});
