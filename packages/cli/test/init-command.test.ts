import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPipelineFile } from '@orchestra/core';
import { loadConfig } from '@orchestra/llm/config';
import { STARTER_VITEST, initCommand } from '../src/commands/init.js';
import { mergePackageJson, packageName } from '../src/init/package-json.js';
import { orchestra, tempDir } from './cli-helpers.js';

async function init(dir: string | undefined, options: { force?: boolean; core?: string } = {}) {
  let stdout = '';
  let stderr = '';
  const code = await initCommand(dir, options, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

const STARTER = ['.gitignore', 'orchestra.yaml', 'package.json', 'pipeline.dot', 'test'];

describe('orchestra init', () => {
  it('writes a starter project into a new directory, and says what to do next', async () => {
    const dir = join(tempDir(), 'My Project');
    const r = await init(dir);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(readdirSync(dir).sort()).toEqual(STARTER);
    expect(readdirSync(join(dir, 'test'))).toEqual(['pipeline.test.ts']);
    expect(r.stdout).toContain(`created a starter project in ${dir}:\n`);
    expect(r.stdout).toMatch(/^ {2}pipeline\.dot +plan → implement → human review/m);
    expect(r.stdout).toContain(`next:\n  cd '${dir}'\n`);
    expect(r.stdout).toContain('orchestra run pipeline.dot --simulate');
    expect(r.stdout).toContain('npm install && npm test');
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(manifest).toEqual({
      name: 'my-project',
      private: true,
      type: 'module',
      scripts: { test: 'vitest run', validate: 'orchestra validate pipeline.dot' },
      devDependencies: { '@orchestra/core': '^0.1.0', vitest: STARTER_VITEST },
    });
  });

  it('writes a pipeline that validates without a diagnostic, and an orchestra.yaml that loads', async () => {
    const dir = tempDir();
    expect((await init(dir)).code).toBe(0);
    const loaded = await loadPipelineFile(join(dir, 'pipeline.dot'));
    expect(loaded.diagnostics).toEqual([]);
    expect([...loaded.graph!.nodes.keys()]).toEqual(['start', 'exit', 'plan', 'implement', 'review']);
    const config = loadConfig({ cwd: dir, home: tempDir() });
    expect(config.files).toEqual([join(dir, 'orchestra.yaml')]);
    expect(config.config.interviewer?.timeout).toBe('30m');
  });

  it('asks vitest for the range this repository is tested with', () => {
    const root = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
    expect(STARTER_VITEST).toBe(root.devDependencies.vitest);
  });

  it('runs through the command line: the starter runs with --simulate and --auto-approve', () => {
    const dir = join(tempDir(), 'starter');
    expect(orchestra('init', dir).code).toBe(0);
    const ran = orchestra('run', join(dir, 'pipeline.dot'), '--simulate', '--auto-approve', '--quiet', '--logs-dir', join(dir, '.orchestra', 'run'));
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('success');
  });

  it('writes --core into package.json as given', async () => {
    const dir = tempDir();
    await init(dir, { core: 'file:../orchestra/dist/orchestra-core-0.1.0.tgz' });
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).devDependencies['@orchestra/core']).toBe('file:../orchestra/dist/orchestra-core-0.1.0.tgz');
  });

  it('refuses to overwrite starter files, naming them, and writes nothing; --force overwrites them', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'pipeline.dot'), 'mine');
    mkdirSync(join(dir, 'test'));
    writeFileSync(join(dir, 'test', 'pipeline.test.ts'), 'mine too');
    const refused = await init(dir);
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr: `orchestra: pipeline.dot, test/pipeline.test.ts already exist in ${dir} (--force overwrites them); nothing was written\n`,
    });
    expect(readdirSync(dir).sort()).toEqual(['pipeline.dot', 'test']);
    expect(readFileSync(join(dir, 'pipeline.dot'), 'utf8')).toBe('mine');

    const forced = await init(dir, { force: true });
    expect(forced.code).toBe(0);
    expect(readFileSync(join(dir, 'pipeline.dot'), 'utf8')).toContain('digraph Starter');
    expect(readFileSync(join(dir, 'test', 'pipeline.test.ts'), 'utf8')).toContain("describe('pipeline.dot'");
  });

  it('adds to an existing package.json and .gitignore, keeping everything that is there', async () => {
    const dir = tempDir();
    const mine = { name: 'mine', version: '2.0.0', scripts: { test: 'node --test', build: 'tsc' }, dependencies: { zod: '^4.0.0' } };
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify(mine, null, 4)}\n`);
    writeFileSync(join(dir, '.gitignore'), 'dist/\nnode_modules/');
    const r = await init(dir);
    expect(r.code).toBe(0);
    const text = readFileSync(join(dir, 'package.json'), 'utf8');
    expect(text.startsWith('{\n    "name": "mine"')).toBe(true); // the file's own indentation
    expect(JSON.parse(text)).toEqual({
      ...mine,
      scripts: { test: 'node --test', build: 'tsc', validate: 'orchestra validate pipeline.dot' },
      devDependencies: { '@orchestra/core': '^0.1.0', vitest: STARTER_VITEST },
    });
    expect(r.stdout).toMatch(/package\.json +added scripts\.validate, devDependencies\.@orchestra\/core, devDependencies\.vitest; kept your scripts\.test/);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe('dist/\nnode_modules/\n.orchestra/\n');
  });

  it('refuses a package.json that is not a JSON object, a file where the directory goes, and a file for test/', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'package.json'), '{ "name": ');
    const bad = await init(dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^orchestra: .*package\.json is not valid JSON \(.*\); nothing was written\n$/);
    expect(readdirSync(dir)).toEqual(['package.json']);

    const file = join(tempDir(), 'a-file');
    writeFileSync(file, '');
    expect(await init(file)).toEqual({ code: 2, stdout: '', stderr: `orchestra: ${file} is a file, not a directory; nothing was written\n` });
    expect(await init(join(file, 'sub'))).toMatchObject({ code: 2, stderr: `orchestra: ${join(file, 'sub')} cannot exist: ${file} is a file, not a directory; nothing was written\n` });

    const blocked = tempDir();
    writeFileSync(join(blocked, 'test'), '');
    expect(await init(blocked)).toMatchObject({ code: 2, stderr: `orchestra: ${join(blocked, 'test')} is a file, not a directory; nothing was written\n` });
    expect(existsSync(join(blocked, 'pipeline.dot'))).toBe(false);
  });

  it('escapes control characters in the names it prints', async () => {
    const dir = join(tempDir(), 'evil\u001b[2Kname');
    const r = await init(dir);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('\u001b');
  });
});

describe('package.json helpers', () => {
  it('derives an npm name from a directory name', () => {
    expect(packageName('My Project')).toBe('my-project');
    expect(packageName('.hidden_dir')).toBe('hidden_dir');
    expect(packageName('日本')).toBe('orchestra-project');
  });

  it('reports a package.json that is JSON but not an object', () => {
    expect(mergePackageJson('[1]', { core: '^0.1.0', vitest: STARTER_VITEST })).toBe('does not hold a JSON object');
    expect(mergePackageJson('{"scripts": "x"}', { core: '^0.1.0', vitest: STARTER_VITEST })).toMatchObject({ kept: ['scripts'] });
  });
});
