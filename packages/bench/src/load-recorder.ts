import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI_BUNDLES } from './cli-bundle.js';

/** What one command loaded. */
export interface LoadedModules {
  /** Paths of every script file the process compiled (CommonJS, ES modules and the code-cached start-up bundle alike). */
  files: string[];
  /** True when a bundle ({@link CLI_BUNDLES}) ran, false when the launcher fell back to the TypeScript sources. */
  bundle: boolean;
  /** Loaded files that hold LangChain's OpenAI client: a path under `@langchain/`, or a file whose text contains `ChatOpenAI`. */
  langchainFiles: string[];
}

/**
 * Records which script files a node process runs, from V8's own coverage
 * report: {@link env} sets `NODE_V8_COVERAGE` to a fresh directory, in which
 * node writes, at exit, every script it compiled; {@link read} reads it back.
 * Unlike a module hook this sees CommonJS and `vm` scripts too (the start-up
 * bundle runs as one). Call {@link dispose} when done.
 */
export class LoadRecorder {
  private readonly dir = mkdtempSync(join(tmpdir(), 'orchestra-load-recorder-'));
  private count = 0;

  /** A fresh coverage directory for the next command, as the environment variable node reads. */
  env(): { NODE_V8_COVERAGE: string } {
    const dir = join(this.dir, `run-${++this.count}`);
    mkdirSync(dir);
    return { NODE_V8_COVERAGE: dir };
  }

  /** What the command that ran with `env` loaded. */
  read(env: { NODE_V8_COVERAGE: string }): LoadedModules {
    const dir = env.NODE_V8_COVERAGE;
    const reports = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
    const urls = reports.flatMap((f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { result: { url: string }[] }).result.map((s) => s.url));
    const files = [...new Set(urls.filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u)))];
    const holdsClient = (file: string) => /[\\/]@langchain[\\/]/.test(file) || readFileSync(file, 'utf8').includes('ChatOpenAI');
    return {
      files,
      bundle: files.some((f) => CLI_BUNDLES.some((b) => f.replaceAll('\\', '/').endsWith(b))),
      langchainFiles: files.filter(holdsClient),
    };
  }

  /** Removes the reports. */
  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
