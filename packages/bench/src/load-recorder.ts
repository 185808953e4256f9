import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The module hooks, run by node in its hooks thread: append every loaded module's URL to the file named in `data`. */
const HOOKS_SOURCE = `import { appendFileSync } from 'node:fs';
let file;
export function initialize(data) { file = data.file; }
export async function load(url, context, nextLoad) {
  if (file) appendFileSync(file, url + '\\n');
  return nextLoad(url, context);
}
`;

/** The `--import` module: registers the hooks with the list file from ORCHESTRA_BENCH_LOADS. */
const REGISTER_SOURCE = `import { register } from 'node:module';
register('./hooks.mjs', import.meta.url, { data: { file: process.env.ORCHESTRA_BENCH_LOADS } });
`;

/** What one command loaded. */
export interface LoadedModules {
  /** Paths of every `file:` module loaded, in order. */
  files: string[];
  /** True when the bundle (`packages/cli/dist/orchestra.mjs`) ran, false when the launcher fell back to the TypeScript sources. */
  bundle: boolean;
  /** Loaded files that hold LangChain's OpenAI client: a path under `@langchain/`, or a file whose text contains `ChatOpenAI`. */
  langchainFiles: string[];
}

/**
 * Records which modules a node process loads: {@link nodeArgs} go before the
 * script (`--import` of a module registering a `load` hook), {@link env}
 * names the list file, {@link read} reads it back. Call {@link dispose} when done.
 */
export class LoadRecorder {
  private readonly dir = mkdtempSync(join(tmpdir(), 'orchestra-load-recorder-'));
  private count = 0;

  constructor() {
    writeFileSync(join(this.dir, 'hooks.mjs'), HOOKS_SOURCE);
    writeFileSync(join(this.dir, 'register.mjs'), REGISTER_SOURCE);
  }

  /** Node options that install the recorder. */
  nodeArgs(): string[] {
    return ['--import', pathToFileURL(join(this.dir, 'register.mjs')).href];
  }

  /** A fresh list file for the next command, as the environment variable the recorder reads. */
  env(): { ORCHESTRA_BENCH_LOADS: string } {
    return { ORCHESTRA_BENCH_LOADS: join(this.dir, `loads-${++this.count}.txt`) };
  }

  /** What the command that ran with `env` loaded. */
  read(env: { ORCHESTRA_BENCH_LOADS: string }): LoadedModules {
    const list = env.ORCHESTRA_BENCH_LOADS;
    const urls = existsSync(list) ? readFileSync(list, 'utf8').split('\n') : [];
    const files = [...new Set(urls.filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u)))];
    const holdsClient = (file: string) => /[\\/]@langchain[\\/]/.test(file) || readFileSync(file, 'utf8').includes('ChatOpenAI');
    return {
      files,
      bundle: files.some((f) => /[\\/]packages[\\/]cli[\\/]dist[\\/]orchestra\.mjs$/.test(f)),
      langchainFiles: files.filter((f) => !f.startsWith(this.dir) && holdsClient(f)),
    };
  }

  /** Removes the hook modules and lists. */
  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
