import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORKSPACE_TOOL_NAMES, Workspace, createWorkspaceTools, type WorkspaceToolName } from '../../src/tools/index.js';
import { call, read, removeTempDirs, tempDir, write } from './helpers.js';

let base: string;
let root: string;
let outside: string;

beforeEach(() => {
  base = tempDir();
  root = join(base, 'ws');
  outside = join(base, 'outside');
  mkdirSync(root);
  write(outside, 'secret.txt', 'TOP SECRET\n');
  write(base, 'parent-marker.txt', 'PARENT MARKER\n');
  write(root, 'src/a.ts', 'export const a = 1;\n');
  symlinkSync(join(outside, 'secret.txt'), join(root, 'secret-link.txt'));
  symlinkSync(outside, join(root, 'out-dir'));
  symlinkSync(join(root, 'src'), join(root, 'src-link'));
  symlinkSync(join(root, 'src', 'a.ts'), join(root, 'a-link.ts'));
});
afterEach(removeTempDirs);

const tools = () => createWorkspaceTools({ root, tools: WORKSPACE_TOOL_NAMES.filter((t): t is WorkspaceToolName => t !== 'run_command'), commandTimeoutMs: 1000 });

async function refusal(promise: Promise<unknown>): Promise<Error & { refused?: boolean; code?: string }> {
  let result: unknown;
  try {
    result = await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error(`expected a refusal, got: ${String(result)}`);
}

describe('Workspace.resolve', () => {
  it('resolves paths inside the root, relative or absolute', () => {
    const ws = new Workspace(root);
    expect(ws.resolve('src/a.ts')).toMatch(/ws\/src\/a\.ts$/);
    expect(ws.resolve(join(root, 'src/a.ts'))).toBe(ws.resolve('src/a.ts'));
    expect(ws.resolve('src/../src/a.ts')).toBe(ws.resolve('src/a.ts'));
    expect(ws.resolve('new/file.txt')).toMatch(/ws\/new\/file\.txt$/);
  });

  it('refuses .., absolute paths elsewhere and links that lead out, with a message for the model', () => {
    const ws = new Workspace(root);
    for (const path of ['../x', '../outside/secret.txt', join(outside, 'secret.txt'), '/etc/passwd', 'secret-link.txt', 'out-dir/secret.txt', 'out-dir/new.txt', 'out-dir']) {
      let error: (Error & { refused?: boolean; name: string }) | undefined;
      try {
        ws.resolve(path);
      } catch (e) {
        error = e as Error;
      }
      expect(error?.name, path).toBe('ToolRefusal');
      expect(error?.refused).toBe(true);
      expect(error?.message).toMatch(/^refused: .* (is outside the workspace|leads outside the workspace through a symbolic link) \(.*\/ws\); use a path inside it$/);
    }
    expect(() => ws.resolve('../x')).toThrow(`refused: ../x is outside the workspace (${root}); use a path inside it`);
  });

  it('refuses the workspace\'s parent itself: .., ../, sub/../.. and its absolute path', () => {
    const ws = new Workspace(root);
    for (const path of PARENT_PATHS()) {
      expect(() => ws.resolve(path), path).toThrow(`refused: ${path} is outside the workspace (${root}); use a path inside it`);
      expect(() => ws.resolve(path, { write: true }), path).toThrow(`refused: ${path} is outside the workspace (${root}); use a path inside it`);
    }
  });

  it('refuses a dangling link and a path through it (where it leads cannot be checked)', () => {
    symlinkSync(join(outside, 'missing', 'file.txt'), join(root, 'dangling'));
    const ws = new Workspace(root);
    expect(() => ws.resolve('dangling', { write: true })).toThrow(/refused: dangling goes through a symbolic link whose target does not exist/);
    expect(existsSync(join(outside, 'missing'))).toBe(false);
  });

  it('refuses writes inside .orchestra and inside any run directory, wherever it is; reads stay allowed', () => {
    const ws = new Workspace(root);
    write(root, 'runs/r1/manifest.json', JSON.stringify({ format: 'orchestra.run/1' }));
    write(root, 'runs/r1/pipeline.dot', 'digraph P {}');
    write(root, 'runs/r2/checkpoint.json', JSON.stringify({ format: 'orchestra.checkpoint/1' }));
    write(root, 'runs/mine/manifest.json', JSON.stringify({ format: 'my.app/1' }));
    write(root, 'runs/mine/pipeline.dot', 'digraph P {}');
    for (const path of ['.orchestra/runs/x/pipeline.dot', '.Orchestra/session.json', 'sub/.orchestra/new.txt', 'runs/r1/pipeline.dot', 'runs/r1/stage/status.json', 'runs/r1/deep/new/file.txt', 'runs/r2/journal.jsonl', 'src/../runs/r1/manifest.json']) {
      expect(() => ws.resolve(path, { write: true }), path).toThrow(/refused: .* is inside (\.orchestra|the orchestra run directory runs\/r[12])/);
    }
    expect(existsSync(join(root, '.orchestra'))).toBe(false);
    expect(existsSync(join(root, 'runs/r1/deep'))).toBe(false);
    // A folder that only looks like a run (another program's manifest, a pipeline.dot) is the user's.
    expect(ws.resolve('runs/mine/pipeline.dot', { write: true })).toMatch(/runs\/mine\/pipeline\.dot$/);
    expect(ws.resolve('runs/r1/pipeline.dot')).toMatch(/runs\/r1\/pipeline\.dot$/);
  });

  it('refuses a run directory reached through a symbolic link inside the workspace', () => {
    const ws = new Workspace(root);
    write(root, 'deep/run/manifest.json', JSON.stringify({ format: 'orchestra.run/1' }));
    symlinkSync(join(root, 'deep', 'run'), join(root, 'run-link'));
    expect(() => ws.resolve('run-link/pipeline.dot', { write: true })).toThrow(/is inside the orchestra run directory deep\/run/);
  });

  it('refuses writes inside .git and creates parent directories only after the check', () => {
    const ws = new Workspace(root);
    expect(() => ws.resolve('.git/hooks/pre-commit', { write: true })).toThrow(/refused: \.git\/hooks\/pre-commit is inside \.git/);
    expect(existsSync(join(root, '.git'))).toBe(false);
    expect(() => ws.resolve('out-dir/deep/new.txt', { write: true })).toThrow(/refused/);
    expect(existsSync(join(outside, 'deep'))).toBe(false);
    ws.resolve('made/by/check.txt', { write: true });
    expect(existsSync(join(root, 'made', 'by'))).toBe(true);
  });

  it('escapes control characters of the path in messages', () => {
    expect(() => new Workspace(root).resolve('../\u001b[31mred')).toThrow('refused: ../\\e[31mred is outside');
  });
});

/** Ways of naming the workspace's parent directory (`base`), which holds parent-marker.txt. */
const PARENT_PATHS = () => ['..', '../', '../.', 'src/../..', 'missing/../..', base, `${base}/`];

/** Each file tool, with the arguments it is called with on `path`. */
const PARENT_CALLS: { label: string; name: string; args: (path: string) => Record<string, unknown> }[] = [
  { label: 'read_file', name: 'read_file', args: (path) => ({ path }) },
  { label: 'write_file', name: 'write_file', args: (path) => ({ path, content: 'pwned' }) },
  { label: 'edit_file', name: 'edit_file', args: (path) => ({ path, old_text: 'PARENT', new_text: 'PWNED' }) },
  { label: 'list_files', name: 'list_files', args: (path) => ({ path }) },
  { label: 'list_files (recursive)', name: 'list_files', args: (path) => ({ path, recursive: true }) },
  { label: 'search_text', name: 'search_text', args: (path) => ({ pattern: 'MARKER', path }) },
];

describe('file tools refuse the workspace\'s parent directory itself', () => {
  it.each(PARENT_CALLS)('$label refuses .., ../, sub/../.. and the parent\'s absolute path and touches nothing there', async ({ name, args }) => {
    const t = tools();
    const before = readdirSync(base).sort();
    for (const path of PARENT_PATHS()) {
      const error = await refusal(call(t, name, args(path)));
      expect(error.message, `${name} ${path}`).toBe(`refused: ${path} is outside the workspace (${root}); use a path inside it`);
      expect(error.refused).toBe(true);
      expect(error.code).toBe('ORCH_TOOL_REFUSED');
    }
    expect(readdirSync(base).sort()).toEqual(before);
    expect(read(join(base, 'parent-marker.txt'))).toBe('PARENT MARKER\n');
  });
});

describe('file tools stay inside the workspace', () => {
  it('read_file refuses ../, absolute paths elsewhere, and links to a file or directory outside', async () => {
    const t = tools();
    for (const path of ['../outside/secret.txt', join(outside, 'secret.txt'), 'secret-link.txt', 'out-dir/secret.txt']) {
      const error = await refusal(call(t, 'read_file', { path }));
      expect(error.message, path).toMatch(/^refused:/);
      expect(error.message).not.toContain('TOP SECRET');
      expect(error.refused).toBe(true);
      expect(error.code).toBe('ORCH_TOOL_REFUSED');
    }
  });

  it('write_file and edit_file refuse links that lead out and leave the outside untouched', async () => {
    const t = tools();
    expect((await refusal(call(t, 'write_file', { path: 'secret-link.txt', content: 'pwned' }))).refused).toBe(true);
    expect((await refusal(call(t, 'write_file', { path: 'out-dir/new.txt', content: 'pwned' }))).refused).toBe(true);
    expect((await refusal(call(t, 'write_file', { path: '../escape.txt', content: 'pwned' }))).refused).toBe(true);
    expect((await refusal(call(t, 'edit_file', { path: 'secret-link.txt', old_text: 'TOP', new_text: 'NOT' }))).refused).toBe(true);
    expect((await refusal(call(t, 'edit_file', { path: 'out-dir/secret.txt', old_text: 'TOP', new_text: 'NOT' }))).refused).toBe(true);
    expect(read(join(outside, 'secret.txt'))).toBe('TOP SECRET\n');
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
    expect(existsSync(join(base, 'escape.txt'))).toBe(false);
  });

  it('list_files and search_text refuse a directory link that leads out, and never follow links while walking', async () => {
    const t = tools();
    expect((await refusal(call(t, 'list_files', { path: 'out-dir' }))).refused).toBe(true);
    expect((await refusal(call(t, 'search_text', { pattern: 'SECRET', path: 'out-dir' }))).refused).toBe(true);
    expect((await refusal(call(t, 'search_text', { pattern: 'SECRET', path: 'secret-link.txt' }))).refused).toBe(true);
    const listing = await call(t, 'list_files', { recursive: true });
    expect(listing).toContain('out-dir (symbolic link, not followed)');
    expect(listing).toContain('secret-link.txt (symbolic link, not followed)');
    expect(listing).not.toContain('out-dir/secret.txt');
    expect(await call(t, 'search_text', { pattern: 'SECRET' })).toBe('no matches for "SECRET" in .');
  });

  it('a link inside pointing inside works', async () => {
    const t = tools();
    expect(await call(t, 'read_file', { path: 'a-link.ts' })).toBe('export const a = 1;');
    expect(await call(t, 'read_file', { path: 'src-link/a.ts' })).toBe('export const a = 1;');
    expect(await call(t, 'list_files', { path: 'src-link' })).toBe('src/a.ts');
    expect(await call(t, 'write_file', { path: 'src-link/b.ts', content: 'b' })).toBe('wrote 1 bytes to src-link/b.ts');
    expect(read(join(root, 'src', 'b.ts'))).toBe('b');
    await call(t, 'edit_file', { path: 'a-link.ts', old_text: '1', new_text: '2' });
    expect(read(join(root, 'src', 'a.ts'))).toBe('export const a = 2;\n');
  });
});
