import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { reply, startScriptedOpenAIServer, type ScriptedOpenAIServer } from '@orchestra/testing';
import { CLI_BIN, staleBundle } from './cli-bundle.js';
import { LoadRecorder, type LoadedModules } from './load-recorder.js';
import { summarize, type Stats } from './measure.js';
import { spawnTimed, type SpawnResult } from './spawn-timed.js';

/** The pipelines the start-up benchmark runs, relative to the repository root. */
export const STARTUP_FIXTURES = { validate: 'fixtures/simple.dot', branching: 'fixtures/branching.dot', model: 'fixtures/plan-implement-review.dot' } as const;
/** LLM stages of {@link STARTUP_FIXTURES}.model: chat completions one run with a model makes. */
export const MODEL_RUN_REQUESTS = 3;

/** Thrown when a command does not do what it should: timing a broken command means nothing. */
export class StartupCheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupCheckError';
  }
}

/** Options of {@link runStartupBenchmark}. */
export interface StartupOptions {
  /** Root of the checkout measured (its `packages/cli/bin/orchestra.js` runs, in this directory). */
  root: string;
  /** Root of a checkout of the previous version, when there is one: `validate` and `run --simulate` are compared with it. */
  baseRoot?: string;
  /** Timed runs of each command. */
  runs: number;
  /** Untimed rounds first (they warm the file cache). */
  warmupRuns: number;
  /**
   * A NODE_EXTRA_CA_CERTS to time `node -e 0` and `validate` with as well (node
   * parses those certificates at every start, which raises the floor a lot):
   * the other commands run with only PATH and HOME.
   */
  extraCaCerts?: string;
  progress?: (line: string) => void;
}

/** What a command loaded, as reported. */
export interface LoadSummary {
  /** Number of module files loaded. */
  files: number;
  /** The bundle ran (not the TypeScript sources). */
  bundle: boolean;
  /** Some loaded file holds LangChain's OpenAI client. */
  langchain: boolean;
  /** Those files, relative to the checkout's root. */
  langchainFiles: string[];
}

/** The start-up benchmark's figures: times in ms, median (min–max) over the timed runs. */
export interface StartupResult {
  runs: number;
  warmupRuns: number;
  /** The previous version's root, or null when none was found (no comparison). */
  baseRoot: string | null;
  times: {
    /** `node -e 0`: the floor of any node command. */
    nodeBare: Stats;
    validate: Stats;
    /** The same two with this shell's NODE_EXTRA_CA_CERTS (node reads those certificates at every start), when it is set. */
    nodeBareCerts?: Stats;
    validateCerts?: Stats;
    simulate: Stats;
    /** `run --model`: spawn → the server receives the first chat completion. */
    modelFirstRequest: Stats;
    /** `run --model`: spawn → exit (three stages against the scripted server). */
    modelTotal: Stats;
    baseValidate?: Stats;
    baseSimulate?: Stats;
  };
  /** New / old, medians and minimums. */
  ratios?: { validate: { median: number; min: number }; simulate: { median: number; min: number } };
  /** `validate` / `node -e 0`, medians and minimums (and with NODE_EXTRA_CA_CERTS, when set). */
  overFloor: { validate: { median: number; min: number }; validateCerts?: { median: number; min: number } };
  /** The NODE_EXTRA_CA_CERTS of the `…Certs` commands, or null. */
  extraCaCerts: string | null;
  loads: { validate: LoadSummary; simulate: LoadSummary; model: LoadSummary; baseValidate?: LoadSummary; baseSimulate?: LoadSummary };
}

/** One command of the benchmark. */
interface Command {
  key: 'nodeBare' | 'validate' | 'nodeBareCerts' | 'validateCerts' | 'simulate' | 'model' | 'baseValidate' | 'baseSimulate';
  /** Runs it once (optionally with extra node options and environment); returns ms and, for a model run, ms to the first request. */
  run: (nodeArgs?: string[], env?: Record<string, string>) => Promise<{ ms: number; firstRequestMs?: number }>;
}

function check(result: SpawnResult, what: string, expect: (r: SpawnResult) => boolean = () => true): void {
  if (result.code === 0 && expect(result)) return;
  const output = `${result.stdout}${result.stderr}`.trim().split('\n').slice(-5).join('\n    ');
  throw new StartupCheckError(`${what} exited ${result.code ?? result.signal}${output ? `:\n    ${output}` : ''}`);
}

/**
 * The CLI commands for the checkout at `root`, run in `root` with only `PATH`
 * and an empty `HOME` in the environment (`base`: the previous version's keys;
 * `withModel`: also the run against the scripted server).
 */
function commandsFor(root: string, scratch: string, home: string, server: ScriptedOpenAIServer, firstRequest: { at: number | undefined }, withModel: boolean, base: boolean): Command[] {
  const bin = join(root, CLI_BIN);
  const env = (extra: Record<string, string> = {}) => ({ PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, ...extra });
  let count = 0;
  const logsDir = () => join(scratch, `${base ? 'base-' : ''}run-${++count}`);
  const cli = (args: string[], nodeArgs: string[] = [], extra: Record<string, string> = {}) => spawnTimed([...nodeArgs, bin, ...args], { cwd: root, env: env(extra) });
  const commands: Command[] = [
    {
      key: base ? 'baseValidate' : 'validate',
      run: async (nodeArgs, extra) => {
        const r = await cli(['validate', STARTUP_FIXTURES.validate], nodeArgs, extra);
        check(r, `${bin} validate ${STARTUP_FIXTURES.validate}`, (x) => /: valid/.test(x.stdout));
        return { ms: r.ms };
      },
    },
    {
      key: base ? 'baseSimulate' : 'simulate',
      run: async (nodeArgs, extra) => {
        const dir = logsDir();
        const r = await cli(['run', STARTUP_FIXTURES.branching, '--simulate', '--logs-dir', dir], nodeArgs, extra);
        rmSync(dir, { recursive: true, force: true });
        check(r, `${bin} run ${STARTUP_FIXTURES.branching} --simulate`);
        return { ms: r.ms };
      },
    },
  ];
  if (withModel) {
    commands.push({
      key: 'model',
      run: async (nodeArgs, extra) => {
        const dir = logsDir();
        const before = server.completions.length;
        firstRequest.at = undefined;
        const r = await cli(['run', STARTUP_FIXTURES.model, '--model', 'bench-model', '--logs-dir', dir], nodeArgs, {
          OPENAI_BASE_URL: server.url,
          OPENAI_API_KEY: 'k',
          ...extra,
        });
        rmSync(dir, { recursive: true, force: true });
        const what = `${bin} run ${STARTUP_FIXTURES.model} --model bench-model`;
        check(r, what);
        const made = server.completions.length - before;
        if (made !== MODEL_RUN_REQUESTS || firstRequest.at === undefined) throw new StartupCheckError(`${what} made ${made} chat completions, expected ${MODEL_RUN_REQUESTS}`);
        return { ms: r.ms, firstRequestMs: firstRequest.at - r.spawnedAt };
      },
    });
  }
  return commands;
}

function summarizeLoads(loaded: LoadedModules, root: string): LoadSummary {
  return { files: loaded.files.length, bundle: loaded.bundle, langchain: loaded.langchainFiles.length > 0, langchainFiles: loaded.langchainFiles.map((f) => relative(root, f)) };
}

/**
 * Runs each command once more with the module recorder and checks what it
 * loaded: the bundle every time; no LangChain for `validate` and
 * `run --simulate`; LangChain for the run with a model (the control that
 * shows the check can see it).
 */
async function recordLoads(commands: readonly Command[], recorder: LoadRecorder, roots: { root: string; baseRoot?: string }): Promise<StartupResult['loads']> {
  const loads: Partial<Record<Command['key'], LoadSummary>> = {};
  for (const command of commands) {
    if (command.key === 'nodeBare' || command.key === 'nodeBareCerts' || command.key === 'validateCerts') continue;
    const env = recorder.env();
    await command.run([], env);
    const summary = summarizeLoads(recorder.read(env), command.key.startsWith('base') ? (roots.baseRoot as string) : roots.root);
    if (!summary.bundle) throw new StartupCheckError(`${command.key}: the launcher ran the TypeScript sources, not the bundle (rebuild with node scripts/build.mjs)`);
    if (command.key === 'model' && !summary.langchain) throw new StartupCheckError('the run with a model loaded no file holding ChatOpenAI: the load check cannot see LangChain, so it proves nothing');
    loads[command.key] = summary;
  }
  return loads as StartupResult['loads'];
}

/**
 * The start-up benchmark: spawns the CLI (and `node -e 0`) `runs` times per
 * command after `warmupRuns` untimed rounds, round-robin with the order
 * reversed every other round, against the scripted server in this process
 * for the run with a model. Then runs each command once with a module
 * recorder to prove what it loads. Throws {@link StartupCheckError} when a
 * command fails or the bundle is stale.
 */
export async function runStartupBenchmark(options: StartupOptions): Promise<StartupResult> {
  const { root, baseRoot, runs, warmupRuns, extraCaCerts } = options;
  for (const checkout of [root, ...(baseRoot ? [baseRoot] : [])]) {
    const stale = staleBundle(checkout);
    if (stale) throw new StartupCheckError(`the CLI bundle is stale (${stale}): the launcher would compile the sources; run node scripts/build.mjs in ${checkout}`);
  }
  const scratch = mkdtempSync(join(tmpdir(), 'orchestra-startup-bench-'));
  const home = join(scratch, 'home');
  const firstRequest: { at: number | undefined } = { at: undefined };
  const server = await startScriptedOpenAIServer({
    responder: () => {
      firstRequest.at ??= performance.now();
      return reply('Done.', { chunks: 2 });
    },
  });
  const recorder = new LoadRecorder();
  try {
    mkdirSync(home);
    const nodeBare = (key: 'nodeBare' | 'nodeBareCerts', extra: Record<string, string>): Command => ({
      key,
      run: async () => {
        const r = await spawnTimed(['-e', '0'], { cwd: root, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, ...extra } });
        check(r, 'node -e 0');
        return { ms: r.ms };
      },
    });
    const ours = commandsFor(root, scratch, home, server, firstRequest, true, false);
    const ownValidate = ours.find((c) => c.key === 'validate') as Command;
    const certs = extraCaCerts ? { NODE_EXTRA_CA_CERTS: extraCaCerts } : undefined;
    const commands = [
      nodeBare('nodeBare', {}),
      ...ours,
      ...(certs ? [nodeBare('nodeBareCerts', certs), { key: 'validateCerts' as const, run: () => ownValidate.run([], certs) }] : []),
      ...(baseRoot ? commandsFor(baseRoot, scratch, home, server, firstRequest, false, true) : []),
    ];
    // Pairs run next to each other: node and validate (each environment), validate new/old, simulate new/old, model.
    const order = ['nodeBare', 'validate', 'nodeBareCerts', 'validateCerts', 'baseValidate', 'simulate', 'baseSimulate', 'model'].flatMap((key) => commands.filter((c) => c.key === key));
    const samples = new Map<string, number[]>();
    const push = (key: string, value: number) => samples.set(key, [...(samples.get(key) ?? []), value]);
    for (let round = 0; round < warmupRuns + runs; round++) {
      const timed = round >= warmupRuns;
      options.progress?.(timed ? `bench:startup: round ${round - warmupRuns + 1} of ${runs}` : `bench:startup: warm-up ${round + 1} of ${warmupRuns}`);
      for (const command of round % 2 === 0 ? order : [...order].reverse()) {
        const r = await command.run();
        if (!timed) continue;
        if (command.key === 'model') {
          push('modelFirstRequest', r.firstRequestMs as number);
          push('modelTotal', r.ms);
        } else {
          push(command.key, r.ms);
        }
      }
    }
    const stale = staleBundle(root);
    if (stale) throw new StartupCheckError(`the CLI bundle went stale during the benchmark (${stale}); rebuild and rerun`);
    const loads = await recordLoads(order, recorder, { root, ...(baseRoot ? { baseRoot } : {}) });
    const stats = (key: string) => summarize(samples.get(key) ?? []);
    const times: StartupResult['times'] = {
      nodeBare: stats('nodeBare'),
      validate: stats('validate'),
      ...(certs ? { nodeBareCerts: stats('nodeBareCerts'), validateCerts: stats('validateCerts') } : {}),
      simulate: stats('simulate'),
      modelFirstRequest: stats('modelFirstRequest'),
      modelTotal: stats('modelTotal'),
      ...(baseRoot ? { baseValidate: stats('baseValidate'), baseSimulate: stats('baseSimulate') } : {}),
    };
    const ratio = (a: Stats, b: Stats) => ({ median: a.median / b.median, min: a.min / b.min });
    return {
      runs,
      warmupRuns,
      baseRoot: baseRoot ?? null,
      times,
      ...(times.baseValidate && times.baseSimulate ? { ratios: { validate: ratio(times.validate, times.baseValidate), simulate: ratio(times.simulate, times.baseSimulate) } } : {}),
      overFloor: {
        validate: ratio(times.validate, times.nodeBare),
        ...(times.validateCerts && times.nodeBareCerts ? { validateCerts: ratio(times.validateCerts, times.nodeBareCerts) } : {}),
      },
      extraCaCerts: extraCaCerts ?? null,
      loads,
    };
  } finally {
    recorder.dispose();
    await server.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The previous version's checkout at `dir`, when its CLI launcher exists there. */
export function findBase(dir: string): string | undefined {
  return existsSync(join(dir, CLI_BIN)) ? dir : undefined;
}
