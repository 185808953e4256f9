import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startOtlpReceiver } from '@orchestra/testing';
import { ROOT, modelFreeEnv, runOrchestra, tempDir } from './cli-helpers.js';

/**
 * What each command loads at start. The record is V8's own coverage report
 * (NODE_V8_COVERAGE): every script the process compiled, CommonJS, ES
 * modules and the code-cached start-up bundle alike. For a file of the
 * bundle (packages/cli/dist/) the sources are the modules it holds, from the
 * path comments esbuild puts before each; for the TypeScript sources (the
 * launcher falls back to them when they are newer than the bundle) the files
 * themselves.
 */

/** A command's exit code, the files it ran (relative to the repository root, with /) and the sources in them. */
interface Loaded {
  code: number | null;
  files: string[];
  sources: string[];
}

const DIST = `packages${sep}cli${sep}dist${sep}`;

function posix(path: string): string {
  return path.split(sep).join('/');
}

/** The modules a file of the bundle holds (esbuild's `// path` lines), or the file itself. */
function sourcesIn(file: string): string[] {
  if (!relative(ROOT, file).startsWith(DIST)) return [posix(relative(ROOT, file))];
  return [...readFileSync(file, 'utf8').matchAll(/^\/\/ ((?:packages|node_modules)\/\S+\.[cm]?[jt]sx?)$/gm)].map((m) => m[1] as string);
}

async function loadsOf(args: string[], env: Record<string, string> = {}): Promise<Loaded> {
  const coverage = tempDir();
  const result = await runOrchestra(args, { env: modelFreeEnv({ NODE_V8_COVERAGE: coverage, ...env }) });
  const urls = readdirSync(coverage).flatMap((f) => (JSON.parse(readFileSync(join(coverage, f), 'utf8')) as { result: { url: string }[] }).result.map((s) => s.url));
  const files = [...new Set(urls.filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u)))];
  return { code: result.code, files: files.map((f) => posix(relative(ROOT, f))), sources: [...new Set(files.flatMap(sourcesIn))] };
}

/** The built-in modules of node that `orchestra <args>` loaded (`process.moduleLoadList` at exit, from a preloaded script). */
async function builtinsOf(args: string[]): Promise<{ code: number | null; stdout: string; builtins: string[] }> {
  const dir = tempDir();
  const preload = join(dir, 'builtins.cjs');
  const list = join(dir, 'builtins.txt');
  writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));\n`);
  const result = await runOrchestra(args, { env: modelFreeEnv({ NODE_OPTIONS: `--require=${preload}` }) });
  const builtins = readFileSync(list, 'utf8').split('\n').filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
  return { code: result.code, stdout: result.stdout, builtins };
}

/** The package a source belongs to: `hono`, `@langchain/openai`, or a workspace directory such as `packages/core/src/engine`. */
function packageOf(source: string): string {
  const dependency = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source);
  if (dependency) return dependency[1] as string;
  return source.split('/').slice(0, 4).join('/');
}

/** What `validate` and `run --simulate` must not load: the LLM layer, the server, Graphviz, the MCP SDK. */
const HEAVY = ['@langchain/core', '@langchain/openai', 'openai', 'hono', '@hono/node-server', '@viz-js/viz', '@modelcontextprotocol/sdk', 'packages/llm/src', 'packages/server/src', 'packages/chat/src'];

/** What only a command sending traces loads. */
const OTEL = ['@opentelemetry/api', '@opentelemetry/sdk-trace-base', '@opentelemetry/sdk-trace', '@opentelemetry/core', '@opentelemetry/resources', '@opentelemetry/exporter-trace-otlp-proto', '@opentelemetry/exporter-trace-otlp-http', '@opentelemetry/otlp-exporter-base', '@opentelemetry/otlp-transformer', 'packages/core/src/tracing'];

function heavyIn(r: Loaded): string[] {
  return [...new Set(r.sources.map(packageOf))].filter((p) => HEAVY.includes(p));
}

describe('start-up: what each command loads', () => {
  it('validate runs the loader and nothing heavy: no engine, zod, LLM layer, server, Graphviz or MCP SDK', async () => {
    const r = await loadsOf(['validate', 'fixtures/plan-implement-review.dot']);
    expect(r.code).toBe(0);
    // The record sees into the bundle: the loader is there.
    expect(r.sources).toContain('packages/core/src/loader.ts');
    expect(heavyIn(r)).toEqual([]);
    const packages = new Set(r.sources.map(packageOf));
    expect(packages.has('zod')).toBe(false);
    expect(packages.has('packages/core/src/engine')).toBe(false);
  });

  it('validate from the bundle runs only the CommonJS start-up bundle: no ES module, no other command', async () => {
    const r = await loadsOf(['validate', 'fixtures/simple.dot']);
    expect(r.code).toBe(0);
    expect(r.files, 'the launcher ran the sources, not the bundle: rebuild (node scripts/build.mjs)').toContain('packages/cli/dist/cli.cjs');
    // command-modules.cjs is the other commands' import()s, required by the bundle; it imports none of them.
    expect(r.files.sort()).toEqual(['packages/cli/bin/orchestra.js', 'packages/cli/dist/cli.cjs', 'packages/cli/dist/command-modules.cjs', 'packages/cli/dist/orchestra.cjs']);
  });

  it('validate sets up no stream for its output and no child process support: node loads neither net nor child_process', async () => {
    const r = await builtinsOf(['validate', 'fixtures/simple.dot']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('fixtures/simple.dot: valid (0 warnings)\n');
    expect(r.builtins).toContain('fs'); // the list is there
    expect(r.builtins.filter((m) => ['net', 'stream', 'child_process', 'tty'].includes(m))).toEqual([]);
  });

  it('a command that runs a pipeline sets them up (the check sees them when they are there)', async () => {
    const r = await builtinsOf(['run', 'fixtures/simple.dot', '--simulate', '--quiet', '--logs-dir', join(tempDir(), 'run')]);
    expect(r.code).toBe(0);
    expect(r.builtins).toContain('net');
  });

  it('run --simulate loads the engine but not the LLM layer, server, Graphviz or MCP SDK', async () => {
    const r = await loadsOf(['run', 'fixtures/plan-implement-review.dot', '--simulate', '--quiet', '--logs-dir', join(tempDir(), 'run')]);
    expect(r.code).toBe(0);
    expect(r.sources.map(packageOf)).toContain('packages/core/src/engine');
    expect(heavyIn(r)).toEqual([]);
  });

  it('a run with a model loads LangChain (the check can see it when it is there)', async () => {
    // No server: the run is refused before any call, but only after the model backend was built.
    const r = await loadsOf(['run', 'fixtures/plan-implement-review.dot', '--model', 'm', '--quiet', '--logs-dir', join(tempDir(), 'run')]);
    expect(r.code).toBe(2);
    expect(heavyIn(r)).toContain('@langchain/openai');
  });

  it('a run without tracing loads nothing of OpenTelemetry: not the SDK, the exporters, the API or the tracing consumer', async () => {
    const r = await loadsOf(['run', 'fixtures/parallel.dot', '--simulate', '--quiet', '--logs-dir', join(tempDir(), 'run')]);
    expect(r.code).toBe(0);
    expect(r.sources.map(packageOf)).toContain('packages/core/src/engine');
    expect([...new Set(r.sources.map(packageOf))].filter((p) => OTEL.includes(p))).toEqual([]);
    expect(r.sources).not.toContain('packages/cli/src/tracing/otel-sdk.ts');
  });

  it('a run with an OTLP endpoint loads the SDK and the protobuf exporter (the JSON one with http/json) from the bundle, and its spans arrive', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const r = await loadsOf(['run', 'fixtures/simple.dot', '--simulate', '--quiet', '--logs-dir', join(tempDir(), 'run')], { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
      expect(r.code).toBe(0);
      expect(r.files, 'the launcher ran the sources, not the bundle: rebuild (node scripts/build.mjs)').toContain('packages/cli/dist/cli.cjs');
      const loaded = new Set(r.sources.map(packageOf));
      for (const p of ['@opentelemetry/sdk-trace-base', '@opentelemetry/exporter-trace-otlp-proto', 'packages/core/src/tracing']) expect(loaded.has(p), p).toBe(true);
      expect(loaded.has('@opentelemetry/exporter-trace-otlp-http')).toBe(false); // JSON's exporter: only for http/json
      expect(r.sources).toContain('packages/cli/src/tracing/otel-sdk.ts');
      expect(receiver.requests.map((q) => q.contentType)).toContain('application/x-protobuf');
      expect(receiver.spans().map((s) => s.name)).toContain('run Simple');
      // And OTLP/JSON, from its own exporter.
      const json = await loadsOf(['run', 'fixtures/simple.dot', '--simulate', '--quiet', '--logs-dir', join(tempDir(), 'run')], { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
      expect(json.code).toBe(0);
      expect(new Set(json.sources.map(packageOf)).has('@opentelemetry/exporter-trace-otlp-http')).toBe(true);
      expect(receiver.requests.map((q) => q.contentType)).toContain('application/json');
      expect(receiver.spans().filter((s) => s.name === 'run Simple')).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });

  it('render loads Graphviz (the check can see it) and nothing of the LLM layer or the MCP SDK', async () => {
    const r = await loadsOf(['render', 'fixtures/simple.dot', '-o', join(tempDir(), 'simple.svg')]);
    expect(r.code).toBe(0);
    // Hono comes too: esbuild puts @orchestra/server's HTTP modules in the chunk of its pictures.
    expect(heavyIn(r)).toContain('@viz-js/viz');
    expect(heavyIn(r).filter((p) => !['@viz-js/viz', 'hono', '@hono/node-server', 'packages/server/src'].includes(p))).toEqual([]);
  });
});
