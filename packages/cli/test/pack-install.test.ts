import { spawn, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixturePath, startOtlpReceiver } from '@orchestra/testing';
import { ROOT, plainEnv } from './cli-helpers.js';

/**
 * The packages as a user gets them: `pnpm pack` each, `npm install -g` the
 * CLI into a temporary prefix, and `pnpm install` the libraries into a
 * temporary project, all offline. The third-party dependencies (zod,
 * LangChain, ...) cannot come from the registry in a test, so the project's
 * install links them to the workspace's own copies (`pnpm.overrides` with
 * `link:`); everything of orchestra's comes from the tarballs. The CLI
 * tarball has no dependencies at all (it is one bundle).
 */

const LIBRARIES = ['core', 'llm', 'testing'] as const;
const PACKAGES = [...LIBRARIES, 'cli'] as const;

function run(command: string, args: readonly string[], options: SpawnSyncOptions = {}): string {
  const r = spawnSync(command, args, { encoding: 'utf8', env: plainEnv(), ...options });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}\n${String(r.stdout)}\n${String(r.stderr)}`);
  return String(r.stdout);
}

/** The pnpm running this suite (`pnpm test` sets npm_execpath), else the pinned one through npx. */
function pnpm(args: readonly string[], cwd: string): string {
  const exec = process.env.npm_execpath ?? '';
  if (/pnpm\.c?js$/.test(exec)) return run(process.execPath, [exec, ...args], { cwd });
  const pinned = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { packageManager: string }).packageManager;
  return run('npx', ['--yes', pinned, ...args], { cwd });
}

function manifest(path: string): { version: string; dependencies?: Record<string, string>; peerDependencies?: Record<string, string> } {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** The workspace's copy of a dependency of packages/<name>, as a `link:` target. */
function workspaceCopy(name: string, dependency: string): string {
  return realpathSync(join(ROOT, 'packages', name, 'node_modules', dependency));
}

/** Whether the CLI bundle is up to date for every command, as bin/orchestra.js decides (by the build's stamp). */
function bundleIsFresh(): boolean {
  const launcher = createRequire(import.meta.url)('../bin/orchestra.js') as { staleReason: (cliDir: string, argv: readonly string[]) => string | undefined };
  return launcher.staleReason(join(ROOT, 'packages/cli'), ['run']) === undefined;
}

/**
 * What the registry would give a project installing the libraries: each
 * third-party dependency linked to the workspace's copy, each @orchestra
 * package (llm's own @orchestra/core included) the packed tarball.
 */
function offlineOverrides(tarballs: Record<string, string>): Record<string, string> {
  const overrides: Record<string, string> = {};
  for (const name of LIBRARIES) {
    const own = manifest(join(ROOT, 'packages', name, 'package.json'));
    for (const dependency of Object.keys({ ...own.dependencies, ...own.peerDependencies })) {
      if (!dependency.startsWith('@orchestra/')) overrides[dependency] = `link:${workspaceCopy(name, dependency)}`;
    }
  }
  for (const name of LIBRARIES) overrides[`@orchestra/${name}`] = `file:${tarballs[name]}`;
  return overrides;
}

/** `pnpm install` in a project, offline, with its own store and cache. */
function installOffline(project: string, work: string): void {
  pnpm(['install', '--offline', '--no-frozen-lockfile', '--ignore-scripts', '--store-dir', join(work, 'store'), '--cache-dir', join(work, 'pnpm-cache')], project);
}

/** The environment of a vitest started by a test: without the variables of the vitest running it. */
function outerEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...plainEnv(), ...extra };
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'TEST' || key === 'NODE_ENV') delete env[key];
  return env;
}

/** The text of docs/<file> from `heading` to the next heading of the same or a higher level. */
function docSection(file: string, heading: string): string {
  const text = readFileSync(join(ROOT, 'docs', file), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`docs/${file} has no heading ${heading}`);
  const level = heading.split(' ')[0]!;
  const ends = Array.from({ length: level.length }, (_, i) => text.indexOf(`\n${'#'.repeat(i + 1)} `, start + heading.length + 1)).filter((at) => at !== -1);
  return text.slice(start, ends.length > 0 ? Math.min(...ends) : undefined);
}

/** The fenced code blocks of a language (`''`: blocks without one) in a piece of markdown, in order. */
function fenced(markdown: string, lang: string): string[] {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)\n```$/gm)].filter((m) => m[1] === lang).map((m) => m[2] as string);
}

describe('installable packages', () => {
  const work = mkdtempSync(join(tmpdir(), 'orchestra-pack-'));
  const packs = join(work, 'packs');
  const tarballs: Record<string, string> = {};
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('pnpm pack builds a tarball per package, with dist/ and the exports pointing into it', () => {
    // The libraries' dist/ (tsc --build, incremental). The CLI's bundle is built by the test command
    // before the suite, and rebuilding it here would pull it from under the CLI tests running beside
    // this one: only a missing or stale bundle (vitest started by hand after an edit) is rebuilt.
    run(process.execPath, [join(ROOT, 'scripts/build-packages.mjs')]);
    if (!bundleIsFresh()) run(process.execPath, [join(ROOT, 'scripts/build.mjs')]);
    for (const name of PACKAGES) {
      pnpm(['pack', '--pack-destination', packs, '--config.ignore-scripts=true'], join(ROOT, 'packages', name));
      tarballs[name] = join(packs, `orchestra-${name}-0.1.0.tgz`);
      expect(existsSync(tarballs[name])).toBe(true);
    }
    const core = join(work, 'core-contents');
    mkdirSync(core);
    run('tar', ['-xzf', tarballs.core!, '-C', core]);
    const packed = JSON.parse(readFileSync(join(core, 'package/package.json'), 'utf8'));
    expect(packed.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
    expect(existsSync(join(core, 'package/dist/index.d.ts'))).toBe(true);
    // Every entry point is in the tarball, each pointing into dist/.
    expect(Object.keys(packed.exports)).toEqual(['.', './loader', './store', './handlers', './human', './tracing']);
    for (const target of Object.values(packed.exports) as { types: string; import: string }[]) {
      expect(existsSync(join(core, 'package', target.types)), target.types).toBe(true);
      expect(existsSync(join(core, 'package', target.import)), target.import).toBe(true);
    }
    expect(existsSync(join(core, 'package/src'))).toBe(false);
    expect(existsSync(join(core, 'package/dist/.tsbuildinfo'))).toBe(false);
    expect(JSON.stringify(packed)).not.toContain('workspace:');
  }, 240_000);

  const prefix = join(work, 'prefix');

  it('npm install -g of the CLI tarball puts orchestra on the PATH, offline, with nothing else to fetch', async () => {
    run('npm', ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', '--cache', join(work, 'npm-cache'), tarballs.cli!]);
    const env = { ...plainEnv(), PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}` };
    const cwd = mkdtempSync(join(work, 'elsewhere-'));
    const version = spawnSync('orchestra', ['--version'], { cwd, env, encoding: 'utf8' });
    expect(version.stdout.trim()).toBe(manifest(join(ROOT, 'packages/cli/package.json')).version);

    const checked = spawnSync('orchestra', ['validate', fixturePath('simple.dot'), fixturePath('invalid/lint-errors.dot')], { cwd, env, encoding: 'utf8' });
    expect(checked.status).toBe(1);
    expect(checked.stdout).toContain(`${fixturePath('simple.dot')}: valid (0 warnings)\n`);
    expect(checked.stdout).toContain(`${fixturePath('invalid/lint-errors.dot')}: invalid: 6 errors, 0 warnings\n`);

    cpSync(fixturePath('simple.dot'), join(cwd, 'simple.dot'));
    const ran = spawnSync('orchestra', ['run', 'simple.dot', '--simulate', '--quiet', '--logs-dir', 'run'], { cwd, env, encoding: 'utf8' });
    expect(ran.stderr).toBe('');
    expect(ran.status).toBe(0);
    expect(readdirSync(join(cwd, 'run'))).toContain('checkpoint.json');
    // The installed package is the bundle alone: no node_modules came with it.
    expect(existsSync(join(prefix, 'lib/node_modules/@orchestra/cli/node_modules'))).toBe(false);

    // Traces: the OpenTelemetry SDK and exporter it loads only then are in the bundle too.
    const receiver = await startOtlpReceiver();
    try {
      const traced = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn('orchestra', ['run', 'simple.dot', '--simulate', '--quiet', '--logs-dir', 'traced'], { cwd, env: { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
        let stderr = '';
        child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
        child.on('close', (code) => resolve({ code, stderr }));
      });
      expect(traced.stderr).toBe('');
      expect(traced.code).toBe(0);
      expect(receiver.spans().map((s) => s.name)).toContain('run Simple');
    } finally {
      await receiver.close();
    }
  }, 120_000);

  it('the installed orchestra serves the API and its web page (the page is in the tarball)', async () => {
    const env = { ...plainEnv(), PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}` };
    const cwd = mkdtempSync(join(work, 'served-'));
    const child = spawn('orchestra', ['serve', '--port', '0'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`orchestra serve printed no URL: ${out}`)), 20_000);
        const read = (b: Buffer) => {
          out += b.toString();
          const match = /serving (http:\/\/\S+) /.exec(out);
          if (match) {
            clearTimeout(timer);
            resolve(match[1] as string);
          }
        };
        child.stdout.on('data', read);
        child.stderr.on('data', read);
      });
      const page = await (await fetch(`${url}/`)).text();
      expect(page).toContain('/assets/app.js');
      const script = await fetch(`${url}/assets/app.js`);
      expect(script.status).toBe(200);
      expect((await script.text()).length).toBeGreaterThan(1000);
      expect((await fetch(`${url}/pipelines`)).status).toBe(200);
    } finally {
      child.kill('SIGINT');
    }
  }, 60_000);

  it('a project installs the libraries, imports them from plain .mjs and type-checks a .ts consumer', () => {
    const project = join(work, 'project');
    mkdirSync(project);
    cpSync(join(ROOT, 'packages/cli/test/consumer'), project, { recursive: true });
    const overrides = offlineOverrides(tarballs);
    const dependencies = Object.fromEntries(LIBRARIES.map((name) => [`@orchestra/${name}`, `file:${tarballs[name]}`]));
    const typesNode = realpathSync(join(ROOT, 'node_modules/@types/node'));
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies, devDependencies: { '@types/node': `link:${typesNode}` }, pnpm: { overrides } }, null, 2),
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }, files: ['consumer.ts'] }),
    );
    installOffline(project, work);
    // The libraries are the packed ones, not links into the workspace.
    expect(realpathSync(join(project, 'node_modules/@orchestra/core'))).toContain(join(project, 'node_modules/.pnpm'));

    const out = run(process.execPath, ['consumer.mjs'], { cwd: project });
    expect(JSON.parse(out)).toEqual({ status: 'success', nodes: ['start', 'plan', 'review', 'plan', 'review', 'exit'], loaderOk: true, restored: 'completed', llm: 'function', agentTools: 6 });

    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const checked = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8' });
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.status).toBe(0);
    // The check is not vacuous: the same file with a wrong call fails against the packed types.
    writeFileSync(join(project, 'consumer.ts'), `${readFileSync(join(project, 'consumer.ts'), 'utf8')}\nexport const bad: number = new QueueInterviewer([]);\n`);
    const failing = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8' });
    expect(failing.status).not.toBe(0);
    expect(failing.stdout).toContain("Type 'QueueInterviewer' is not assignable to type 'number'");
  }, 180_000);

  it('orchestra init from the installed CLI, then exactly the commands it prints: install, a run, the tests', () => {
    const env = outerEnv({ PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}` });
    const fresh = mkdtempSync(join(work, 'fresh-'));
    const created = spawnSync('orchestra', ['init', 'my-project'], { cwd: fresh, env, encoding: 'utf8' });
    expect(created.stderr).toBe('');
    expect(created.status).toBe(0);
    followPrinted(created.stdout, fresh);
  }, 180_000);

  it('orchestra init from the clone (what npx pnpm orchestra init runs), then exactly the commands it prints', () => {
    const fresh = mkdtempSync(join(work, 'clone-'));
    const created = spawnSync(process.execPath, [join(ROOT, 'packages/cli/bin/orchestra.js'), 'init', '../clone-project'], { cwd: fresh, env: outerEnv(), encoding: 'utf8' });
    expect(created.stderr).toBe('');
    expect(created.status).toBe(0);
    followPrinted(created.stdout, fresh);
  }, 180_000);

  /**
   * Runs the commands `orchestra init` printed (its indented lines after
   * `next:`), as they are, in one shell from where init ran, answering the
   * review gate of the run with A; then checks what each did. The PATH has no
   * orchestra: the run and the scripts must use the project's own.
   */
  function followPrinted(printed: string, from: string): void {
    const commands = printed.slice(printed.indexOf('\nnext:')).split('\n').filter((line) => line.startsWith('  ')).map((line) => line.trim());
    expect(commands.slice(-3)).toEqual(['npm install', 'npx orchestra run pipeline.dot --simulate', 'npm test']);
    const project = resolve(from, commands[0]!.replace(/^cd /, ''));
    withoutRegistry(project);
    const env = offlineNpmEnv();
    const shell = spawnSync('sh', ['-e', '-c', commands.join('\n')], { cwd: from, env, input: 'A\n', encoding: 'utf8' });
    const output = shell.stdout + shell.stderr;
    expect(shell.status, output).toBe(0);
    expect(output).toContain('success: 5 nodes run');
    expect(output).toMatch(/Tests\s+3 passed \(3\)/);
    // orchestra's packages came from the tarballs init put in vendor/, copied in (not linked anywhere).
    expect(realpathSync(join(project, 'node_modules/.bin/orchestra'))).toBe(join(project, 'node_modules/@orchestra/cli/dist/orchestra.cjs'));
    expect(lstatSync(join(project, 'node_modules/@orchestra/core')).isSymbolicLink()).toBe(false);
    const validated = spawnSync('npm', ['run', '--silent', 'validate'], { cwd: project, env, encoding: 'utf8' });
    expect(validated.stdout).toBe('pipeline.dot: valid (0 warnings)\n');
  }

  /**
   * npm as a new user has it (a home of its own, no ~/.npmrc, none of the npm_* settings of the
   * pnpm running this suite), but offline: what is not on disk fails instead of being fetched.
   */
  function offlineNpmEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    const env = outerEnv();
    for (const key of Object.keys(env)) if (/^npm_/i.test(key)) delete env[key];
    const home = mkdtempSync(join(work, 'home-'));
    return { ...env, HOME: home, npm_config_offline: 'true', npm_config_cache: join(work, 'npm-cache'), npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...extra };
  }

  it("the docs' examples work against the packed libraries: library.md's complete example in an npm init -y project, testing-pipelines.md's scripted server", async () => {
    const project = join(work, 'docs-project');
    mkdirSync(project);
    const env = offlineNpmEnv();
    run('npm', ['init', '-y'], { cwd: project, env });
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    expect(pkg.type).not.toBe('module'); // npm init -y makes a CommonJS project ("type": "commonjs")
    // The registry's stand-in, as for the starter: orchestra's packages are the packed tarballs; the
    // tools the page installs (tsx, typescript, @types/node) and core's dependencies are the workspace's copies.
    pkg.dependencies = { '@orchestra/core': `file:${tarballs.core}`, '@orchestra/testing': `file:${tarballs.testing}` };
    pkg.devDependencies = Object.fromEntries(['tsx', 'typescript', '@types/node'].map((name) => [name, `file:${realpathSync(join(ROOT, 'node_modules', name))}`]));
    const core = manifest(join(ROOT, 'packages/core/package.json'));
    pkg.overrides = { ...Object.fromEntries(Object.keys(core.dependencies ?? {}).map((name) => [name, `file:${workspaceCopy('core', name)}`])), '@orchestra/core': `file:${tarballs.core}` };
    writeFileSync(join(project, 'package.json'), JSON.stringify(pkg, null, 2));
    run('npm', ['install'], { cwd: project, env });

    // library.md: the program saved as release.mts, then the page's commands after its npm install.
    const library = docSection('library.md', '## A complete example');
    writeFileSync(join(project, 'release.mts'), fenced(library, 'ts')[0]!);
    const [install, ...commands] = fenced(library, 'sh')[0]!.split('\n');
    expect(install).toBe('npm install -D tsx typescript @types/node');
    const shell = spawnSync('sh', ['-e', '-c', commands.join('\n')], { cwd: project, env, encoding: 'utf8' });
    expect(shell.stderr).toBe('');
    expect(shell.status).toBe(0);
    // The output the page shows, but for the temporary run directory.
    const shown = fenced(library, '')[0]!.split('\n');
    const printed = shell.stdout.trimEnd().split('\n');
    expect(printed.slice(0, -1)).toEqual(shown.slice(0, -1));
    expect(printed.at(-1)).toMatch(/^run directory: \S+release-\w+\/run$/);

    // testing-pipelines.md: the scripted server on its own, and the installed orchestra pointed at it.
    writeFileSync(join(project, 'scripted-server.mjs'), fenced(docSection('testing-pipelines.md', '### On its own: a server to point orchestra at'), 'js')[0]!);
    const server = spawn(process.execPath, ['scripted-server.mjs'], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      server.stdout.on('data', (b: Buffer) => (out += b.toString()));
      server.stderr.on('data', (b: Buffer) => (out += b.toString()));
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`scripted-server.mjs printed no URL: ${out}`)), 20_000);
        server.stdout.on('data', () => {
          const match = /^OPENAI_BASE_URL=(http:\/\/127\.0\.0\.1:\d+\/v1)$/m.exec(out);
          if (match) {
            clearTimeout(timer);
            resolve(match[1] as string);
          }
        });
      });
      cpSync(fixturePath('simple.dot'), join(project, 'simple.dot'));
      const path = `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`;
      const ran = spawnSync('orchestra', ['run', 'simple.dot', '--model', 'scripted-model', '--quiet', '--logs-dir', 'run'], { cwd: project, env: { ...env, PATH: path, OPENAI_BASE_URL: url }, encoding: 'utf8' });
      expect(ran.stderr).toBe('');
      expect(ran.status).toBe(0);
      expect(readFileSync(join(project, 'run/run_tests/response.md'), 'utf8')).toBe('Scripted reply to: Run the test suite and report results');
      const stopped = new Promise<number | null>((resolve) => server.on('close', resolve));
      server.kill('SIGINT');
      expect(await stopped).toBe(0);
      expect(out).toContain('\n2 chat completions answered\n');
    } finally {
      server.kill('SIGKILL');
    }
  }, 180_000);

  /**
   * Stands in for the npm registry, which a test may not reach: the one
   * dependency the starter takes from the registry (vitest) becomes the
   * workspace's copy, and @orchestra/core's dependencies (zod, ...) resolve to
   * the workspace's copies (npm `overrides`). orchestra's own packages stay as
   * init wrote them, `file:vendor/...` tarballs; npm runs with --offline, so
   * anything else would fail instead of being fetched.
   */
  function withoutRegistry(project: string): void {
    const starter = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    expect(Object.keys(starter.devDependencies).sort()).toEqual(['@orchestra/cli', '@orchestra/core', 'vitest']);
    expect(starter.devDependencies['@orchestra/core']).toMatch(/^file:vendor\/orchestra-core-0\.1\.0-[0-9a-f]{8}\.tgz$/);
    starter.devDependencies.vitest = `file:${realpathSync(join(ROOT, 'node_modules/vitest'))}`;
    const core = manifest(join(ROOT, 'packages/core/package.json'));
    starter.overrides = Object.fromEntries(Object.keys(core.dependencies ?? {}).map((name) => [name, `file:${workspaceCopy('core', name)}`]));
    writeFileSync(join(project, 'package.json'), JSON.stringify(starter, null, 2));
  }
});
