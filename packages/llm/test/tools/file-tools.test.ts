import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_WORKSPACE_TOOLS,
  MAX_LIST_ENTRIES,
  MAX_SEARCH_MATCHES,
  WORKSPACE_TOOL_NAMES,
  Workspace,
  createWorkspaceTools,
  searchWorkspaceText,
} from '../../src/tools/index.js';
import { call, read, removeTempDirs, tempDir, write } from './helpers.js';

let root: string;
beforeEach(() => {
  root = tempDir();
});
afterEach(removeTempDirs);

const tools = () => createWorkspaceTools({ root, tools: DEFAULT_WORKSPACE_TOOLS, commandTimeoutMs: 1000 });

async function failure(promise: Promise<unknown>): Promise<Error & { refused?: boolean }> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

describe('createWorkspaceTools', () => {
  it('builds the named tools in order; run_command is not a default', () => {
    expect(DEFAULT_WORKSPACE_TOOLS).toEqual(['read_file', 'write_file', 'edit_file', 'list_files', 'search_text']);
    expect(createWorkspaceTools({ root, tools: WORKSPACE_TOOL_NAMES, commandTimeoutMs: 1000 }).map((t) => t.name)).toEqual([...WORKSPACE_TOOL_NAMES]);
    expect(createWorkspaceTools({ root, tools: ['search_text', 'read_file', 'read_file'], commandTimeoutMs: 1000 }).map((t) => t.name)).toEqual(['search_text', 'read_file']);
  });
});

describe('read_file', () => {
  it('returns the text, or a range of lines with a note on how to continue', async () => {
    write(root, 'notes.txt', 'one\ntwo\nthree\nfour\n');
    const t = tools();
    expect(await call(t, 'read_file', { path: 'notes.txt' })).toBe('one\ntwo\nthree\nfour');
    expect(await call(t, 'read_file', { path: 'notes.txt', offset: 2, limit: 2 })).toBe('two\nthree\n\n[showing lines 2-3 of 4; continue with offset=4]');
    expect(await call(t, 'read_file', { path: 'notes.txt', offset: 4 })).toBe('four');
    expect((await failure(call(t, 'read_file', { path: 'notes.txt', offset: 9 }))).message).toBe('notes.txt has 4 lines; offset 9 is past the end');
  });

  it('caps the text at about 100 KB and says so', async () => {
    write(root, 'big.txt', `${'x'.repeat(999)}\n`.repeat(300));
    const text = await call(tools(), 'read_file', { path: 'big.txt' });
    expect(text.length).toBeLessThan(101_000);
    // 100 lines of 1000 characters (with their newlines) fill the 100,000 characters exactly.
    expect(text.slice(-200)).toMatch(/\n\n\[showing lines 1-100 of 300 \(the output limit of about 100 KB was reached\); continue with offset=101\]$/);
  });

  it('refuses binary files, and says when a file is missing or a directory', async () => {
    write(root, 'image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01]));
    mkdirSync(join(root, 'dir'));
    const t = tools();
    expect((await failure(call(t, 'read_file', { path: 'image.png' }))).message).toBe('image.png is a binary file (7 bytes); read_file shows text files only');
    expect((await failure(call(t, 'read_file', { path: 'src/a.ts' }))).message).toBe('no such file: src/a.ts');
    expect((await failure(call(t, 'read_file', { path: 'dir' }))).message).toBe('dir is a directory; use list_files to see what is in it');
  });
});

describe('write_file', () => {
  it('writes the file, creating parent directories', async () => {
    expect(await call(tools(), 'write_file', { path: 'a/b/c.txt', content: 'héllo' })).toBe('wrote 6 bytes to a/b/c.txt');
    expect(read(join(root, 'a/b/c.txt'))).toBe('héllo');
  });
});

describe('edit_file', () => {
  it('replaces text that occurs exactly once, taking the new text literally', async () => {
    write(root, 'a.ts', 'const a = 1;\nconst b = 2;\n');
    expect(await call(tools(), 'edit_file', { path: 'a.ts', old_text: 'const b = 2;', new_text: "const b = '$&$1';" })).toBe('edited a.ts: replaced 1 occurrence');
    expect(read(join(root, 'a.ts'))).toBe("const a = 1;\nconst b = '$&$1';\n");
  });

  it('refuses 0 or several occurrences with a count and advice; replace_all replaces them all', async () => {
    write(root, 'a.ts', 'x = 1;\nx = 1;\n');
    const t = tools();
    expect((await failure(call(t, 'edit_file', { path: 'a.ts', old_text: 'y = 1;', new_text: 'z' }))).message).toBe(
      'old_text was not found in a.ts; read the file and copy the text exactly, including whitespace',
    );
    expect((await failure(call(t, 'edit_file', { path: 'a.ts', old_text: 'x = 1;', new_text: 'z' }))).message).toBe(
      'old_text occurs 2 times in a.ts; include more of the surrounding lines so that it occurs exactly once, or set replace_all',
    );
    expect(read(join(root, 'a.ts'))).toBe('x = 1;\nx = 1;\n');
    expect(await call(t, 'edit_file', { path: 'a.ts', old_text: 'x = 1;', new_text: 'z;', replace_all: true })).toBe('edited a.ts: replaced 2 occurrences');
    expect(read(join(root, 'a.ts'))).toBe('z;\nz;\n');
  });

  it('does not create anything for a missing file', async () => {
    expect((await failure(call(tools(), 'edit_file', { path: 'new/a.ts', old_text: 'x', new_text: 'y' }))).message).toBe('no such file: new/a.ts');
    expect(existsSync(join(root, 'new'))).toBe(false);
  });
});

describe('list_files', () => {
  it('lists one entry a line, sorted, directories with a trailing slash, paths from the workspace root', async () => {
    write(root, 'b.txt', '');
    write(root, 'a/z.txt', '');
    write(root, 'a/y/x.txt', '');
    write(root, 'node_modules/pkg/index.js', '');
    write(root, '.git/HEAD', '');
    const t = tools();
    expect(await call(t, 'list_files', {})).toBe(['.git/', 'a/', 'b.txt', 'node_modules/'].join('\n'));
    expect(await call(t, 'list_files', { path: 'a' })).toBe(['a/y/', 'a/z.txt'].join('\n'));
    expect(await call(t, 'list_files', { recursive: true })).toBe(
      ['.git/ (not listed)', 'a/', 'a/y/', 'a/y/x.txt', 'a/z.txt', 'b.txt', 'node_modules/ (not listed)'].join('\n'),
    );
  });

  it(`stops at ${MAX_LIST_ENTRIES} entries and says so`, async () => {
    for (let i = 0; i < MAX_LIST_ENTRIES + 5; i++) write(root, `many/f${String(i).padStart(4, '0')}.txt`, '');
    const lines = (await call(tools(), 'list_files', { path: 'many' })).split('\n');
    expect(lines).toHaveLength(MAX_LIST_ENTRIES + 1);
    expect(lines[0]).toBe('many/f0000.txt');
    expect(lines.at(-1)).toBe(`[stopped at ${MAX_LIST_ENTRIES} entries; list a subdirectory to see the rest]`);
  });

  it('says when the path is a file or missing', async () => {
    write(root, 'f.txt', '');
    expect((await failure(call(tools(), 'list_files', { path: 'f.txt' }))).message).toBe('f.txt is a file, not a directory; use read_file to read it');
    expect((await failure(call(tools(), 'list_files', { path: 'nope' }))).message).toBe('no such directory: nope');
  });
});

describe('search_text', () => {
  beforeEach(() => {
    write(root, 'src/a.ts', 'const alpha = 1;\nconst beta = alpha + 1;\n');
    write(root, 'src/b.md', 'alpha (a.b) notes\n');
    write(root, 'bin.dat', Buffer.from('alpha\u0000binary'));
    write(root, 'node_modules/x/alpha.js', 'alpha\n');
  });

  it('finds literal text as file:line: text, skipping binary files and node_modules', async () => {
    expect(await call(tools(), 'search_text', { pattern: 'alpha' })).toBe(
      ['src/a.ts:1: const alpha = 1;', 'src/a.ts:2: const beta = alpha + 1;', 'src/b.md:1: alpha (a.b) notes'].join('\n'),
    );
    expect(await call(tools(), 'search_text', { pattern: '(a.b)' })).toBe('src/b.md:1: alpha (a.b) notes');
  });

  it('matches regular expressions, limits to a glob or a path, and names an invalid regex', async () => {
    const t = tools();
    expect(await call(t, 'search_text', { pattern: '^const \\w+ = \\d', regex: true })).toBe('src/a.ts:1: const alpha = 1;');
    expect(await call(t, 'search_text', { pattern: 'alpha', glob: '*.md' })).toBe('src/b.md:1: alpha (a.b) notes');
    expect(await call(t, 'search_text', { pattern: 'alpha', glob: 'src/**/*.{ts,js}' })).toBe('src/a.ts:1: const alpha = 1;\nsrc/a.ts:2: const beta = alpha + 1;');
    expect(await call(t, 'search_text', { pattern: 'beta', path: 'src/a.ts' })).toBe('src/a.ts:2: const beta = alpha + 1;');
    expect(await call(t, 'search_text', { pattern: 'gamma' })).toBe('no matches for "gamma" in .');
    expect((await failure(call(t, 'search_text', { pattern: '(unclosed', regex: true }))).message).toMatch(/^invalid regex "\(unclosed": /);
  });

  it(`stops at ${MAX_SEARCH_MATCHES} matches and escapes control characters in lines`, async () => {
    write(root, 'many.txt', 'hit\n'.repeat(MAX_SEARCH_MATCHES + 10));
    write(root, 'ctl.txt', 'ctl \u001b[2J\r gone\n');
    const lines = (await call(tools(), 'search_text', { pattern: 'hit' })).split('\n');
    expect(lines).toHaveLength(MAX_SEARCH_MATCHES + 1);
    expect(lines.at(-1)).toBe(`[stopped at ${MAX_SEARCH_MATCHES} matches; narrow the pattern, path or glob]`);
    expect(await call(tools(), 'search_text', { pattern: 'ctl' })).toBe('ctl.txt:1: ctl \\e[2J\\r gone');
  });

  it('stops when the call is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stage stopped'));
    await expect(call(tools(), 'search_text', { pattern: 'alpha' }, controller.signal)).rejects.toThrow('stage stopped');
    await expect(searchWorkspaceText(new Workspace(root), { pattern: 'alpha' }, controller.signal)).rejects.toThrow('stage stopped');
  });
});
