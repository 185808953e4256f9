import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/**
 * The layers of @orchestra/core, lowest first (docs/architecture.md): a
 * module may import its own layer and the ones below, never one above.
 * The engine knows the store interface, not the file store (`run/`), the
 * built-in handlers or the interviewers; `runner/` wires them together.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['text', 'errors.ts', 'error-codes.ts', 'diagnostics', 'os'],
  ['graph', 'conditions'],
  ['dot', 'stylesheet'],
  ['lint', 'transforms'],
  ['pipeline', 'loader.ts'],
  ['engine'],
  ['human'],
  ['handlers'],
  ['run', 'cassette'],
  ['runner'],
  ['supervisor'],
  ['tracing'],
  ['index.ts', 'store.ts', 'handlers.ts', 'human.ts', 'tracing.ts'],
];

function layerOf(top: string): number {
  return LAYERS.findIndex((names) => names.includes(top));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The top-level entry of src/ a path is in (`engine`, `errors.ts`, ...). */
function topOf(path: string): string {
  return relative(SRC, path).split(/[\\/]/)[0] as string;
}

/** A relative module specifier after `from`, a bare `import`, or in `import(...)`, in either quotes. */
const RELATIVE_IMPORT = /(?:\bfrom\s+|\bimport\s*\(?\s*)(['"])(\.{1,2}\/[^'"]+)\1/g;

/** Every relative import of a file's text, as [importing top, imported top, specifier]. */
function importsOf(file: string, text = readFileSync(file, 'utf8')): { from: string; to: string; specifier: string }[] {
  return [...text.matchAll(RELATIVE_IMPORT)].map((m) => {
    const target = normalize(join(dirname(file), (m[2] as string).replace(/\.js$/, '.ts')));
    return { from: topOf(file), to: topOf(target), specifier: m[2] as string };
  });
}

/** The imports of a file that reach a layer above its own, as messages. */
function upwardImports(file: string, text?: string): string[] {
  return importsOf(file, text)
    .filter((i) => layerOf(i.to) > layerOf(i.from))
    .map((i) => `${relative(SRC, file)} imports ${i.specifier} (${i.from} is below ${i.to})`);
}

describe('layers of @orchestra/core', () => {
  const files = sourceFiles(SRC);

  it('every top-level module has a layer', () => {
    const unplaced = [...new Set(files.map(topOf))].filter((top) => layerOf(top) < 0);
    expect(unplaced).toEqual([]);
  });

  it('no module imports from a layer above its own', () => {
    expect(files.flatMap((file) => upwardImports(file))).toEqual([]);
  });

  it('core imports no LLM library', () => {
    const llm = files.filter((file) => /from '(@langchain\/|langchain|openai|@orchestra\/llm)/.test(readFileSync(file, 'utf8')));
    expect(llm.map((f) => relative(SRC, f))).toEqual([]);
  });

  it('catches an upward import in every form (the check itself works)', () => {
    const engineFile = join(SRC, 'engine', 'store', 'x.ts');
    const forms = [
      "import { FileRunStore } from '../../run/file-run-store.js';",
      'import type { Handler } from "../../handlers/tool-handler.js";',
      "export { runPipeline } from '../../runner/run-pipeline.js';",
      "import '../../handlers/register.js';",
      "const lazy = await import('../../run/file-run-store.js');",
    ];
    for (const form of forms) expect(upwardImports(engineFile, form), form).toHaveLength(1);
    // Imports from the same layer or below are fine.
    expect(upwardImports(engineFile, "import { OrchestraError } from '../../errors.js';\nimport { restore } from './restore.js';")).toEqual([]);
  });
});
