import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { REGENERATE, apiReports, entryPoints, orphanReports, reportedNames, staleReports } from '../../../scripts/api-report.mjs';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The API report of each entry point (packages/<pkg>/api/<entry>.api.md) is
 * checked in: a change to a public surface must show in review. Each report
 * must be what scripts/api-report.mjs makes from the sources now.
 */
describe('API reports', () => {
  const reports = apiReports(ROOT);

  it.each(entryPoints(ROOT).map((entry) => [entry.name, entry.report] as const))('%s: %s is as the sources give it', (name, report) => {
    const checkedIn = readFileSync(join(ROOT, report), 'utf8');
    expect(checkedIn, `the API of ${name} changed: run ${REGENERATE} and review the change to ${report}`).toBe(reports.get(report));
  });

  it('no report is left of an entry point that is gone', () => {
    expect(orphanReports(ROOT, reports), `run ${REGENERATE}, which lists them, and delete them`).toEqual([]);
  });

  it('lists each export with its kind and its declared signature, sorted by name', () => {
    const core = reports.get('packages/core/api/index.api.md') ?? '';
    expect(core).toContain('### `runPipeline`\n\nfunction\n\n```ts\nfunction runPipeline(graph: Graph, options?: RunOptions): Promise<RunResult>;\n```\n');
    const names = reportedNames(core);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(names).toContain('RunSupervisor');
    expect(names).not.toContain('restore'); // on @orchestra/core/store
  });
});

describe('the report of a package whose API changes', () => {
  const root = mkdtempSync(join(tmpdir(), 'api-report-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('tsconfig.base.json', JSON.stringify({ compilerOptions: { target: 'ES2022', lib: ['ES2022'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: [], skipLibCheck: true } }));
  write('packages/demo/package.json', JSON.stringify({ name: '@demo/pkg', exports: { '.': { types: './src/index.ts', import: './src/index.ts' }, './extra': { types: './src/extra.ts', import: './src/extra.ts' } } }));
  write('packages/demo/src/extra.ts', 'export class Counter {\n  private seen = 0;\n  constructor(readonly start: number) {}\n  next(by = 1) {\n    return this.start + by;\n  }\n}\n');
  write('packages/demo/src/index.ts', "export function greet(name: string): string {\n  return `hi ${name}`;\n}\nexport type Mood = 'calm' | 'busy';\n");

  it('writes a report per entry point, and a new export makes the checked-in one stale', () => {
    const first = apiReports(root);
    expect([...first.keys()]).toEqual(['packages/demo/api/index.api.md', 'packages/demo/api/extra.api.md']);
    expect(first.get('packages/demo/api/extra.api.md')).toContain('class Counter {\n    constructor(readonly start: number);\n    next(by?: number): number;\n}');
    for (const [path, text] of first) write(path, text);
    expect(staleReports(root, first)).toEqual([]);

    write('packages/demo/src/index.ts', `${readFileSync(join(root, 'packages/demo/src/index.ts'), 'utf8')}export const LIMIT = 3;\n`);
    const second = apiReports(root);
    expect(staleReports(root, second)).toEqual(['packages/demo/api/index.api.md']);
    expect(reportedNames(second.get('packages/demo/api/index.api.md') ?? '')).toEqual(['LIMIT', 'Mood', 'greet']);
  });

  it('a report whose entry point is gone is an orphan', () => {
    write('packages/demo/api/gone.api.md', '# API report: @demo/pkg/gone\n');
    expect(orphanReports(root, apiReports(root))).toEqual(['packages/demo/api/gone.api.md']);
  });
});
