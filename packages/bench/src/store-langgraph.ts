import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Annotation, MemorySaver, StateGraph } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import type { Sample } from './store-measure.js';

/**
 * The chain as LangGraph runs it, typed loosely: the builder's own types
 * track every node name as a literal, which a chain built in a loop cannot
 * give them.
 */
export interface ChainBuilder {
  addNode(name: string, action: () => { i: number }): ChainBuilder;
  addEdge(from: string, to: string): ChainBuilder;
  compile(options: { checkpointer: BaseCheckpointSaver }): CompiledChain;
}

/** A compiled chain. */
export interface CompiledChain {
  invoke(input: { i: number }, config: { configurable: { thread_id: string }; recursionLimit: number }): Promise<{ i: number }>;
}

/** One state channel, `i` (last value wins), as orchestra's context key `i`. */
const ChainState = Annotation.Root({ i: Annotation<number>() });

/**
 * `START -> s0 -> ... -> s<n-1> -> END`; node `s<i>` returns `{ i }`, the
 * same update orchestra's bench nodes return.
 */
export function langGraphChain(n: number): ChainBuilder {
  const builder = new StateGraph(ChainState) as unknown as ChainBuilder;
  for (let i = 0; i < n; i++) builder.addNode(`s${i}`, () => ({ i }));
  builder.addEdge('__start__', 's0');
  for (let i = 0; i < n; i++) builder.addEdge(`s${i}`, i + 1 < n ? `s${i + 1}` : '__end__');
  return builder;
}

let threads = 0;

/**
 * Runs a compiled chain once on a fresh thread (`invoke`, default
 * durability) and returns the cost per node. Compiling is not timed; a wrong
 * final state throws.
 */
export async function timeLangGraph(chain: CompiledChain, n: number): Promise<Sample> {
  const config = { configurable: { thread_id: `bench-${process.pid}-${threads++}` }, recursionLimit: n + 10 };
  const cpu = process.cpuUsage();
  const started = performance.now();
  const out = await chain.invoke({ i: -1 }, config);
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (out.i !== n - 1) throw new Error(`LangGraph ${n}-node chain ended with i=${String(out.i)}, expected ${n - 1}`);
  return { micros: (elapsed * 1000) / n, user: used.user / n, system: used.system / n };
}

/** LangGraph's in-memory checkpointer, new for every run (as orchestra gets a new MemoryRunStore). */
export function memorySaver(): BaseCheckpointSaver {
  return new MemorySaver();
}

// ---------------------------------------------------------------------------
// LangGraph's SQLite checkpointer, installed on demand.

/**
 * Versions installed into {@link PEERS_DIR} on first use. better-sqlite3 is a
 * native addon: its install script looks for a prebuilt binary on GitHub
 * (unreachable here) and then builds from source with node-gyp (about 75 s
 * on 2 cores), so it is never a dependency of this package: `pnpm install`
 * (CI) must not build it.
 */
export const SQLITE_PEERS = { '@langchain/langgraph-checkpoint-sqlite': '1.0.4', 'better-sqlite3': '12.11.1' } as const;

/** `packages/bench/.peers` (git-ignored), from the bundle in dist/ or the sources in src/. */
export const PEERS_DIR = fileURLToPath(new URL('../.peers', import.meta.url));

/** The part of better-sqlite3's database the benchmark uses. */
export interface SqliteDatabase {
  pragma(source: string, options: { simple: true }): unknown;
  close(): void;
}

/** A `SqliteSaver`: a checkpointer with its database. */
export type SqliteSaverLike = BaseCheckpointSaver & { db: SqliteDatabase };

/** What `@langchain/langgraph-checkpoint-sqlite` exports that is used here. */
export interface SqliteSaverModule {
  SqliteSaver: { fromConnString(path: string): SqliteSaverLike };
}

/** The SQLite checkpointer, or why it is not available. */
export type SqliteLoad =
  | { ok: true; module: SqliteSaverModule; installSeconds: number | null; from: string }
  | { ok: false; reason: string };

function installedVersion(name: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(PEERS_DIR, 'node_modules', name, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

function installed(): boolean {
  return (
    Object.entries(SQLITE_PEERS).every(([name, version]) => installedVersion(name) === version) &&
    existsSync(join(PEERS_DIR, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))
  );
}

/** The lines of an install log that say what went wrong. */
function installErrors(log: string): string {
  const lines = log.split('\n').filter((l) => /ERR!|gyp ERR|error|ENOTFOUND|EAI_AGAIN|prebuild-install warn|not ok/i.test(l));
  return (lines.length ? lines : log.split('\n')).slice(-20).join('\n');
}

/**
 * Loads `SqliteSaver`, first installing it with npm into `.peers` when it is
 * not there yet (`npm install --prefix packages/bench/.peers
 * --legacy-peer-deps`, output in `.peers/install.log`). Its peers
 * (`@langchain/langgraph-checkpoint`, `@langchain/core`) are not installed
 * there: node finds them by walking up to this package's node_modules, so
 * the saver and LangGraph share one copy. node-gyp needs node's headers: if
 * npm has no `nodedir`, the headers beside this node (`<prefix>/include/node`)
 * are used, so nothing is downloaded.
 */
export async function loadSqliteSaver(log: (line: string) => void): Promise<SqliteLoad> {
  let installSeconds: number | null = null;
  if (!installed()) {
    mkdirSync(PEERS_DIR, { recursive: true });
    writeFileSync(join(PEERS_DIR, 'package.json'), `${JSON.stringify({ private: true, description: 'bench:store on-demand install (git-ignored)', dependencies: SQLITE_PEERS }, null, 2)}\n`);
    const logPath = join(PEERS_DIR, 'install.log');
    const env = { ...process.env };
    const prefix = dirname(dirname(process.execPath));
    if (!env.npm_config_nodedir && !env.NPM_CONFIG_NODEDIR && existsSync(join(prefix, 'include', 'node', 'node_api.h'))) env.npm_config_nodedir = prefix;
    const command = ['install', '--prefix', PEERS_DIR, '--legacy-peer-deps', '--no-audit', '--no-fund', '--foreground-scripts'];
    log(`installing ${Object.entries(SQLITE_PEERS).map(([n, v]) => `${n}@${v}`).join(' and ')} into ${PEERS_DIR} (npm ${command.join(' ')}; builds better-sqlite3 from source, about 75 s, once; log in ${logPath})`);
    const started = performance.now();
    const fd = openSync(logPath, 'w');
    let status: number | null;
    let error: Error | undefined;
    try {
      const result = spawnSync('npm', command, { stdio: ['ignore', fd, fd], env, timeout: 600_000 });
      status = result.status;
      error = result.error;
    } finally {
      closeSync(fd);
    }
    installSeconds = (performance.now() - started) / 1000;
    if (error || status !== 0 || !installed()) {
      const text = existsSync(logPath) ? readFileSync(logPath, 'utf8') : '';
      return { ok: false, reason: `npm ${command.join(' ')} failed (${error ? error.message : `exit ${String(status)}`}) after ${installSeconds.toFixed(0)} s:\n${installErrors(text)}` };
    }
  }
  const entry = join(PEERS_DIR, 'node_modules', '@langchain', 'langgraph-checkpoint-sqlite', 'dist', 'index.js');
  try {
    const module = (await import(pathToFileURL(entry).href)) as SqliteSaverModule;
    const probe = module.SqliteSaver.fromConnString(':memory:');
    probe.db.close();
    return { ok: true, module, installSeconds, from: PEERS_DIR };
  } catch (error) {
    return { ok: false, reason: `${entry} does not load: ${(error as Error).message} (delete ${PEERS_DIR} to reinstall)` };
  }
}
