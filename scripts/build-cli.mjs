// Bundles the CLI into packages/cli/dist/ so the command starts in tens of
// milliseconds instead of compiling TypeScript at every start. Run by
// scripts/build.mjs. What it writes, and why:
//
//   orchestra.cjs          the command (the package's bin; the checkout's launcher requires it):
//                          runs cli.cjs with its V8 code cache (packages/cli/src/boot/start.ts)
//   cli.cjs                the start-up bundle: the command line and `validate` (commander, the
//                          loader), CommonJS: node sets up no ES-module loader to start it
//   cli.cjs.cache          V8's code cache of cli.cjs, made by running `validate` once
//   command-modules.cjs    the other commands' import()s (a real module, so node resolves them)
//   commands/<name>.mjs    each other command, an ES module, sharing chunks/*.mjs (split at
//                          their lazy imports: LangChain, Hono, Graphviz, the MCP SDK)
//   stamp/<group>.json     the stamp: every workspace file bundled and its mtime, by the outputs
//                          that hold it, which the launcher compares to decide whether the
//                          bundle is up to date (packages/cli/bin/orchestra.js)
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = `${root}packages/cli`;
const dist = `${cli}/dist`;
/** The build id line's prefix (packages/cli/src/boot/cli-script.ts BUILD_ID_PREFIX) and a placeholder digest of fixed length. */
const BUILD_ID_PREFIX = '// orchestra-cli build ';
const PLACEHOLDER = '0'.repeat(16);
/** What the code cache is made from: `validate` of these pipelines (their grammar is what start-up compiles). */
const CACHE_WORKLOAD = ['validate', 'fixtures/simple.dot', 'fixtures/branching.dot'];
/** An input modified this close to the build's start (or later) may have changed after esbuild read it. */
const SETTLE_MS = 2000;

// pg loads its optional native binding (pg-native) only when asked for it; orchestra never does.
const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning', metafile: true, external: ['pg-native'] };
/** A CommonJS output must not need what only ES modules have. */
const cjsChecks = { logOverride: { 'empty-import-meta': 'error' } };

/** Marks `./commands/<name>.js` imports (but `validate`) as the ES module `./commands/<name>.mjs` next to the output. */
const commandsAsModules = {
  name: 'commands-as-modules',
  setup(b) {
    b.onResolve({ filter: /^\.\/commands\/[a-z-]+\.js$/ }, (args) => (args.path === './commands/validate.js' ? undefined : { path: args.path.replace(/\.js$/, '.mjs'), external: true }));
  },
};
/** Leaves `./command-modules.js` to node, as `./command-modules.cjs` next to the output. */
const commandModulesAsFile = {
  name: 'command-modules-as-file',
  setup(b) {
    b.onResolve({ filter: /^\.\/command-modules\.js$/ }, () => ({ path: './command-modules.cjs', external: true }));
  },
};

/**
 * commander requires node:child_process as it loads, for subcommands that are
 * programs of their own (orchestra has none); loading it (with net, dgram and
 * streams) is a measurable part of starting. In the start-up bundle commander
 * gets a stand-in that requires it on first use.
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^node:child_process$/ }, (args) => (/[\\/]commander[\\/]/.test(args.importer) ? { path: 'node:child_process', namespace: 'lazy-builtin' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: `module.exports = new Proxy({}, { get: (_target, key) => require(${JSON.stringify(args.path)})[key] });`,
      loader: 'js',
    }));
  },
};

/**
 * In the start-up bundle (validate: one short-lived process reading a few
 * small files) node:fs/promises is a readFile that reads synchronously:
 * loading fs/promises (with readline and streams behind it) and its first
 * asynchronous read cost more than the reads. A name the bundle imports
 * besides readFile fails the build: add it here.
 */
const syncReadFile = {
  name: 'sync-read-file',
  setup(b) {
    b.onResolve({ filter: /^node:fs\/promises$/ }, () => ({ path: 'node:fs/promises', namespace: 'sync-read-file' }));
    b.onLoad({ filter: /.*/, namespace: 'sync-read-file' }, () => ({
      contents: "import { readFileSync } from 'node:fs';\nexport function readFile(path, options) {\n  return new Promise((resolve) => resolve(readFileSync(path, options)));\n}\n",
      loader: 'js',
    }));
  },
};

/** The ES-module commands: every file of src/commands but validate, split into shared chunks. */
function commandEntries() {
  return Object.fromEntries(
    readdirSync(`${cli}/src/commands`)
      .filter((f) => f.endsWith('.ts') && f !== 'validate.ts')
      .map((f) => [`commands/${f.slice(0, -3)}`, `${cli}/src/commands/${f}`]),
  );
}

/** Workspace files among a metafile's inputs (not dependencies), with each package's package.json. */
function workspaceInputs(metafile) {
  const files = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const path = relative(root, `${root}${input}`);
    const match = /^packages\/[^/]+\//.exec(path);
    if (!match || path.includes('node_modules')) continue;
    files.add(path);
    files.add(`${match[0]}package.json`);
  }
  return files;
}

/** Fills the build id line of cli.cjs with a digest of the bundle (same length: the source map stays right). */
function stampBuildId(file) {
  const text = readFileSync(file, 'utf8');
  const digest = createHash('sha256').update(text).digest('hex').slice(0, PLACEHOLDER.length);
  writeFileSync(file, text.replace(`${BUILD_ID_PREFIX}${PLACEHOLDER}`, `${BUILD_ID_PREFIX}${digest}`));
}

/** Runs the cache workload through dist/write-code-cache.cjs, which writes dist/cli.cjs.cache. */
function writeCodeCache() {
  const writer = `${dist}/write-code-cache.cjs`;
  const result = spawnSync(process.execPath, [writer, ...CACHE_WORKLOAD], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  rmSync(writer);
  rmSync(`${writer}.map`, { force: true });
  if (result.status !== 0 && result.status !== 1) throw new Error(`making the code cache failed (exit ${result.status}): ${result.stderr}`);
}

/**
 * The stamp, dist/stamp/<group>.json: the group's workspace inputs as `[path, mtime]`
 * pairs. `start` holds what every command runs (orchestra.cjs, cli.cjs,
 * command-modules.cjs), `commands` what the other commands add. An input changed
 * during the build gets mtime -1, so the launcher never takes the bundle for up to date.
 */
function writeStamp(startedAt, groups) {
  mkdirSync(`${dist}/stamp`);
  let unsettled = 0;
  for (const [group, files] of Object.entries(groups)) {
    const entries = [...files].sort().map((file) => {
      const mtime = statSync(`${root}${file}`).mtimeMs;
      if (mtime < startedAt - SETTLE_MS) return [file, mtime];
      unsettled++;
      return [file, -1];
    });
    writeFileSync(`${dist}/stamp/${group}.json`, `${JSON.stringify(entries)}\n`);
  }
  if (unsettled > 0) console.log(`${unsettled} source file(s) changed during the build: the launcher will run the sources until the next build`);
}

/** Builds packages/cli/dist/ (see the top of this file). */
export async function buildCli() {
  const startedAt = Date.now();
  rmSync(dist, { recursive: true, force: true }); // no stale chunks
  const [modules, front, loaders, boot] = await Promise.all([
    build({
      ...common,
      entryPoints: commandEntries(),
      outdir: dist,
      chunkNames: 'chunks/[name]-[hash]',
      outExtension: { '.js': '.mjs' },
      splitting: true,
      format: 'esm',
      // Bundled CommonJS dependencies call require(); give them one.
      banner: { js: "import { createRequire as __orchestraRequire } from 'node:module'; const require = __orchestraRequire(import.meta.url);" },
    }),
    build({
      ...common,
      ...cjsChecks,
      entryPoints: [`${cli}/src/bin.ts`],
      outfile: `${dist}/cli.cjs`,
      format: 'cjs',
      banner: { js: `${BUILD_ID_PREFIX}${PLACEHOLDER}` },
      plugins: [commandModulesAsFile, lazyChildProcess, syncReadFile],
    }),
    build({ ...common, ...cjsChecks, entryPoints: [`${cli}/src/command-modules.ts`], outfile: `${dist}/command-modules.cjs`, format: 'cjs', plugins: [commandsAsModules] }),
    build({
      ...common,
      ...cjsChecks,
      entryPoints: { orchestra: `${cli}/src/boot/start.ts`, 'write-code-cache': `${cli}/src/boot/write-code-cache.ts` },
      outdir: dist,
      outExtension: { '.js': '.cjs' },
      format: 'cjs',
    }),
  ]);
  // The code-cached bundle is run by vm, which cannot import(): only command-modules.cjs may.
  for (const [out, output] of Object.entries(front.metafile.outputs)) {
    const dynamic = output.imports.filter((i) => i.kind === 'dynamic-import' && i.external);
    if (dynamic.length > 0) throw new Error(`${out} imports ${dynamic.map((i) => i.path).join(', ')} dynamically: only command-modules.ts may`);
  }
  stampBuildId(`${dist}/cli.cjs`);
  writeCodeCache();
  writeStamp(startedAt, {
    start: new Set([...workspaceInputs(front.metafile), ...workspaceInputs(loaders.metafile), ...workspaceInputs(boot.metafile)]),
    commands: workspaceInputs(modules.metafile),
  });
}
