import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPipelineFile } from '@orchestra/core';
import { loadConfig } from '@orchestra/llm/config';
import { STARTER_VITEST, initCommand } from '../src/commands/init.js';
import { mergePackageJson, packageName } from '../src/init/package-json.js';
import { writtenByInit } from '../src/init/starter-files.js';
import { publishedManifest } from '../src/init/vendored-packages.js';
import { tempDir } from './cli-helpers.js';
import { cli } from './in-process.js';

/** A path longer than ustar's 100-byte name field: the tarball must split it (name and prefix). */
const LONG = `dist/${'nested-directory/'.repeat(6)}a-file-name-long-enough-to-need-the-prefix-field.js`;

/**
 * A small stand-in for the CLI's package, laid out as the clone's
 * packages/cli after a build: its package.json as in the repository (bin to
 * the launcher, publishConfig to the bundle, workspace dev dependencies),
 * the bundle with a source map, and the @orchestra/core it carries.
 */
function fakeCliPackage(bundle = 'console.log("orchestra");\n'): string {
  const dir = tempDir('orchestra-fake-cli-');
  const core = join(dir, 'dist/libraries/core');
  mkdirSync(join(core, 'dist'), { recursive: true });
  mkdirSync(join(dir, LONG, '..'), { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: '@orchestra/cli',
      version: '0.1.0',
      type: 'module',
      bin: { orchestra: './bin/orchestra.js' },
      files: ['dist'],
      scripts: { prepack: 'node ../../scripts/build.mjs' },
      publishConfig: { bin: { orchestra: './dist/orchestra.mjs' }, exports: { './package.json': './package.json' } },
      exports: { '.': './src/index.ts' },
      devDependencies: { '@orchestra/core': 'workspace:*' },
    }),
  );
  writeFileSync(join(dir, 'dist/orchestra.mjs'), bundle);
  writeFileSync(join(dir, 'dist/orchestra.mjs.map'), '{}');
  writeFileSync(join(dir, LONG), '// deep\n');
  writeFileSync(
    join(core, 'package.json'),
    JSON.stringify({
      name: '@orchestra/core',
      version: '0.1.0',
      type: 'module',
      exports: { '.': { types: './src/index.ts', import: './src/index.ts' } },
      publishConfig: { exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } } },
      dependencies: { zod: '^4.6.7' },
      devDependencies: { '@orchestra/testing': 'workspace:*' },
    }),
  );
  writeFileSync(join(core, 'dist/index.js'), 'export const core = 1;\n');
  writeFileSync(join(core, 'dist/index.d.ts'), 'export declare const core = 1;\n');
  writeFileSync(join(core, 'dist/.tsbuildinfo'), '{}');
  return dir;
}

const FAKE_CLI = fakeCliPackage();

async function init(dir: string | undefined, options: { force?: boolean; core?: string; packageDir?: string } = {}) {
  let stdout = '';
  let stderr = '';
  const code = await initCommand(dir, { packageDir: FAKE_CLI, ...options }, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

/** The tarballs init put in `dir/vendor/`, by package: the file name and its files with their contents (as tar extracts them). */
function vendored(dir: string): Record<string, { file: string; files: Record<string, string> }> {
  const found: Record<string, { file: string; files: Record<string, string> }> = {};
  for (const file of readdirSync(join(dir, 'vendor'))) {
    const out = tempDir('orchestra-untar-');
    const r = spawnSync('tar', ['-xzf', join(dir, 'vendor', file), '-C', out], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`tar -xzf ${file}: ${r.stderr}`);
    const files: Record<string, string> = {};
    for (const entry of readdirSync(out, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) files[join(entry.parentPath, entry.name).slice(out.length + 1)] = readFileSync(join(entry.parentPath, entry.name), 'utf8');
    }
    found[JSON.parse(files['package/package.json'] ?? '{}').name] = { file, files };
  }
  return found;
}

const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

const STARTER = ['.gitignore', 'orchestra.yaml', 'package.json', 'pipeline.dot', 'test', 'vendor'];

describe('orchestra init', () => {
  it('writes a starter project into a new directory, and says what to do next', async () => {
    const dir = join(tempDir(), 'My Project');
    const r = await init(dir);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(readdirSync(dir).sort()).toEqual(STARTER);
    expect(readdirSync(join(dir, 'test'))).toEqual(['pipeline.test.ts']);
    expect(r.stdout).toContain(`created a starter project in ${dir}:\n`);
    expect(r.stdout).toMatch(/^ {2}pipeline\.dot +plan → implement → human review/m);
    // The commands alone, one a line (no comments: zsh would pass them on), in the order to run them.
    expect(r.stdout).toContain(`no model):\n  cd '${dir}'\n  npm install\n  npx orchestra run pipeline.dot --simulate\n  npm test\n`);
    const packages = vendored(dir);
    const { cli, core } = { cli: packages['@orchestra/cli']!, core: packages['@orchestra/core']! };
    expect(cli.file).toMatch(/^orchestra-cli-0\.1\.0-[0-9a-f]{8}\.tgz$/);
    expect(core.file).toMatch(/^orchestra-core-0\.1\.0-[0-9a-f]{8}\.tgz$/);
    expect(manifestOf(dir)).toEqual({
      name: 'my-project',
      private: true,
      type: 'module',
      scripts: { test: 'vitest run', validate: 'orchestra validate pipeline.dot' },
      devDependencies: { '@orchestra/cli': `file:vendor/${cli.file}`, '@orchestra/core': `file:vendor/${core.file}`, vitest: STARTER_VITEST },
    });
    expect(r.stdout).toMatch(new RegExp(`^  vendor/${cli.file} +the orchestra command of the scripts and of npx orchestra`, 'm'));
  });

  it('vendors the CLI and the core it carries as npm would publish them: publishConfig applied, no source maps, no workspace dependencies', async () => {
    const dir = tempDir();
    expect((await init(dir)).code).toBe(0);
    const { '@orchestra/cli': cli, '@orchestra/core': core } = vendored(dir);
    expect(Object.keys(cli!.files).sort()).toEqual(
      ['package/package.json', 'package/dist/orchestra.mjs', `package/${LONG}`, 'package/dist/libraries/core/package.json', 'package/dist/libraries/core/dist/index.js', 'package/dist/libraries/core/dist/index.d.ts'].sort(),
    );
    expect(cli!.files[`package/${LONG}`]).toBe('// deep\n');
    expect(JSON.parse(cli!.files['package/package.json']!)).toEqual({
      name: '@orchestra/cli',
      version: '0.1.0',
      type: 'module',
      bin: { orchestra: './dist/orchestra.mjs' },
      exports: { './package.json': './package.json' },
    });
    expect(Object.keys(core!.files).sort()).toEqual(['package/dist/index.d.ts', 'package/dist/index.js', 'package/package.json']);
    expect(JSON.parse(core!.files['package/package.json']!)).toEqual({
      name: '@orchestra/core',
      version: '0.1.0',
      type: 'module',
      exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } },
      dependencies: { zod: '^4.6.7' },
    });
  });

  it('refuses, writing nothing, when this orchestra has no bundle to vendor (a clone never built)', async () => {
    const bare = fakeCliPackage();
    rmSync(join(bare, 'dist/orchestra.mjs'));
    const dir = join(tempDir(), 'project');
    const r = await init(dir, { packageDir: bare });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: `orchestra: cannot put orchestra's packages in vendor/: ${join(bare, 'dist/orchestra.mjs')} is missing (in a clone of orchestra, npx pnpm@10.34.8 build makes it); nothing was written\n`,
    });
    expect(existsSync(dir)).toBe(false);
  });

  it('running it again changes nothing: the same tarballs, the starter files unchanged', async () => {
    const dir = tempDir();
    await init(dir);
    const before = manifestOf(dir);
    const again = await init(dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^ {2}pipeline\.dot +unchanged$/m);
    expect(again.stdout).toMatch(/^ {2}package\.json +unchanged$/m);
    expect(manifestOf(dir)).toEqual(before);
    expect(readdirSync(join(dir, 'vendor')).length).toBe(2);
  });

  it('repairs what an earlier init wrote: the @orchestra/core range no registry has, and tarballs of an older build', async () => {
    // What orchestra init wrote before it vendored anything.
    const dir = tempDir();
    await init(dir);
    const old = { name: 'p', private: true, type: 'module', scripts: { test: 'vitest run', validate: 'orchestra validate pipeline.dot' }, devDependencies: { '@orchestra/core': '^0.1.0', vitest: STARTER_VITEST } };
    writeFileSync(join(dir, 'package.json'), JSON.stringify(old, null, 2));
    const repaired = await init(dir);
    expect(repaired.code).toBe(0);
    expect(repaired.stdout).toMatch(/package\.json +added devDependencies\.@orchestra\/cli; replaced devDependencies\.@orchestra\/core \(was \^0\.1\.0\)$/m);
    const specs = manifestOf(dir).devDependencies;
    expect(specs['@orchestra/core']).toMatch(/^file:vendor\/orchestra-core-0\.1\.0-[0-9a-f]{8}\.tgz$/);

    // A newer orchestra: its tarballs replace the older ones, which go.
    const newer = await init(dir, { packageDir: fakeCliPackage('console.log("orchestra, newer");\n') });
    expect(newer.code).toBe(0);
    const now = manifestOf(dir).devDependencies;
    expect(now['@orchestra/core']).toBe(specs['@orchestra/core']); // the same core
    expect(now['@orchestra/cli']).not.toBe(specs['@orchestra/cli']);
    expect(readdirSync(join(dir, 'vendor')).sort()).toEqual([now['@orchestra/cli'], now['@orchestra/core']].map((s: string) => s.replace('file:vendor/', '')).sort());
    expect(newer.stdout).toMatch(new RegExp(`^  ${specs['@orchestra/cli'].replace('file:', '').replace(/\./g, '\\.')} +removed: an earlier init put it there, and package\\.json no longer names it$`, 'm'));
  });

  it('--core replaces the @orchestra/core dependency already there, and vendors no core', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'p', devDependencies: { '@orchestra/core': '^0.1.0' } }));
    const r = await init(dir, { core: 'file:../orchestra/dist/orchestra-core-0.1.0.tgz' });
    expect(r.code).toBe(0);
    expect(manifestOf(dir).devDependencies['@orchestra/core']).toBe('file:../orchestra/dist/orchestra-core-0.1.0.tgz');
    expect(r.stdout).toContain('replaced devDependencies.@orchestra/core (was ^0.1.0)');
    expect(readdirSync(join(dir, 'vendor'))).toEqual([expect.stringMatching(/^orchestra-cli-/)]);
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

  it('runs through the command line: the starter runs with --simulate and --auto-approve', async () => {
    const dir = join(tempDir(), 'starter');
    expect((await cli('init', dir)).code).toBe(0);
    const ran = await cli('run', join(dir, 'pipeline.dot'), '--simulate', '--auto-approve', '--quiet', '--logs-dir', join(dir, '.orchestra', 'run'));
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('success');
  });

  it('writes --core into a new package.json as given', async () => {
    const dir = tempDir();
    await init(dir, { core: 'file:../orchestra/dist/orchestra-core-0.1.0.tgz' });
    expect(manifestOf(dir).devDependencies['@orchestra/core']).toBe('file:../orchestra/dist/orchestra-core-0.1.0.tgz');
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
    const mine = { name: 'mine', version: '2.0.0', scripts: { test: 'node --test', build: 'tsc' }, dependencies: { zod: '^4.0.0' }, devDependencies: { '@orchestra/core': 'file:../my-own-core.tgz' } };
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify(mine, null, 4)}\n`);
    writeFileSync(join(dir, '.gitignore'), 'dist/\nnode_modules/');
    const r = await init(dir);
    expect(r.code).toBe(0);
    const text = readFileSync(join(dir, 'package.json'), 'utf8');
    expect(text.startsWith('{\n    "name": "mine"')).toBe(true); // the file's own indentation
    const cli = readdirSync(join(dir, 'vendor')).find((f) => f.startsWith('orchestra-cli-'));
    expect(JSON.parse(text)).toEqual({
      ...mine,
      scripts: { test: 'node --test', build: 'tsc', validate: 'orchestra validate pipeline.dot' },
      devDependencies: { '@orchestra/core': 'file:../my-own-core.tgz', '@orchestra/cli': `file:vendor/${cli}`, vitest: STARTER_VITEST },
    });
    expect(r.stdout).toMatch(/package\.json +added scripts\.validate, devDependencies\.@orchestra\/cli, devDependencies\.vitest; kept your scripts\.test, devDependencies\.@orchestra\/core$/m);
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
    const versions = { core: 'file:vendor/c.tgz', cli: 'file:vendor/d.tgz', vitest: STARTER_VITEST };
    expect(mergePackageJson('[1]', versions)).toBe('does not hold a JSON object');
    expect(mergePackageJson('{"scripts": "x"}', versions)).toMatchObject({ kept: ['scripts'] });
  });

  it('knows the dependencies an earlier init wrote, and no others', () => {
    expect(writtenByInit('@orchestra/core', '^0.1.0')).toBe(true);
    expect(writtenByInit('@orchestra/core', 'file:vendor/orchestra-core-0.1.0-0a1b2c3d.tgz')).toBe(true);
    expect(writtenByInit('@orchestra/cli', 'file:vendor/orchestra-cli-0.1.0-0a1b2c3d.tgz')).toBe(true);
    expect(writtenByInit('@orchestra/cli', 'file:vendor/orchestra-core-0.1.0-0a1b2c3d.tgz')).toBe(false);
    expect(writtenByInit('@orchestra/core', 'file:/abs/orchestra-core-0.1.0.tgz')).toBe(false);
    expect(writtenByInit('@orchestra/core', '^0.2.0')).toBe(false);
    expect(writtenByInit('vitest', '^0.1.0')).toBe(false);
  });

  it('refuses to publish a manifest that still has a workspace dependency', () => {
    expect(publishedManifest({ name: '@orchestra/llm', dependencies: { '@orchestra/core': 'workspace:*' } })).toBe('@orchestra/llm depends on @orchestra/core@workspace:*, which only this repository can resolve');
  });
});
