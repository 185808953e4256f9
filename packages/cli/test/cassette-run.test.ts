import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, startScriptedOpenAIServer, toolCall, type ScriptedOpenAIServer } from '@orchestra/testing';
import { modelFreeEnv, tempDir } from './cli-helpers.js';
import { cliWith } from './in-process.js';

/** `orchestra run --record` against the scripted server, then `--replay` with no server, no key and no answers. */

const KEY = 'sk-test-cassette-key-4242';

const PIPELINE = `digraph Release {
  graph [goal="Announce version 2.0"]
  start  [shape=Mdiamond]
  exit   [shape=Msquare]
  draft  [prompt="Write a release note for: $goal"]
  stamp  [shape=parallelogram, tool_command="printf stamped"]
  check  [prompt="Check README.md and say if it mentions 2.0", agent.backend="agent"]
  gate   [shape=hexagon, label="Publish?"]
  start -> draft -> stamp -> check -> gate
  gate -> exit [label="[P] Publish"]
  gate -> draft [label="[R] Rewrite"]
}
`;

let server: ScriptedOpenAIServer;
beforeEach(async () => {
  server = await startScriptedOpenAIServer({ apiKey: KEY });
});
afterEach(() => server.close());

/** A project directory with the pipeline, a README for the agent, and an answers file. */
function project(): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'release.dot'), PIPELINE);
  writeFileSync(join(dir, 'README.md'), '# Tool\nVersion 2.0 is here.\n');
  writeFileSync(join(dir, 'answers.json'), '["P"]');
  return dir;
}

async function record(dir: string) {
  server.enqueue(reply('Version 2.0 is out.'), toolCall('read_file', { path: 'README.md' }), reply('Yes, it mentions 2.0.'));
  return cliWith(['run', 'release.dot', '--model', 'scripted-model', '--answers', 'answers.json', '--record', 'release.cassette', '--logs-dir', 'recorded'], {
    cwd: dir,
    env: modelFreeEnv({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: KEY }),
  });
}

describe('orchestra run --record / --replay', () => {
  it('records a run, then replays it with the server gone, no key, no answers file and no --model', async () => {
    const dir = project();
    const recorded = await record(dir);
    expect(recorded.stderr).toBe('orchestra: recorded the run in release.cassette (replay it with --replay release.cassette)\n');
    expect(recorded.code).toBe(0);
    const cassette = readFileSync(join(dir, 'release.cassette'), 'utf8');
    expect(cassette).not.toContain(KEY);
    expect(cassette.trim().split('\n')).toHaveLength(1 + 6); // header; draft, stamp, check ×2, its read_file, gate
    await server.close();
    writeFileSync(join(dir, 'README.md'), 'changed: the replay must not read this\n');

    const replayed = await cliWith(['run', 'release.dot', '--replay', 'release.cassette', '--logs-dir', 'replayed'], { cwd: dir, env: modelFreeEnv() });
    expect(replayed.stderr).toBe('');
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toMatch(/✓ draft /);
    expect(readFileSync(join(dir, 'replayed', 'draft', 'response.md'), 'utf8')).toBe('Version 2.0 is out.');
    expect(readFileSync(join(dir, 'replayed', 'check', 'response.md'), 'utf8')).toBe('Yes, it mentions 2.0.');
    expect(JSON.parse(readFileSync(join(dir, 'replayed', 'checkpoint.json'), 'utf8')).context['tool.output']).toBe('stamped');
  });

  it('strict: a run that asks what the cassette does not hold stops with one line naming the stage and the difference (exit 1)', async () => {
    const dir = project();
    expect((await record(dir)).code).toBe(0);
    const replayed = await cliWith(['run', 'release.dot', '--replay', 'release.cassette', '--set', 'audience=admins', '--logs-dir', 'replayed'], { cwd: dir, env: modelFreeEnv() });
    expect(replayed.code).toBe(1);
    const lines = replayed.stderr.trim().split('\n');
    expect(lines.at(-1)).toMatch(/^orchestra: the replay stopped: stage draft, model request 1: messages\[0\]\.content differs: cassette .*, now .*audience = admins.* \(.*release\.cassette:2\)$/);
    expect(replayed.stderr).not.toMatch(/\n\s+at /);
  });

  it('a replayed run is not resumed: resume refuses it and says how to replay it again (exit 2)', async () => {
    const dir = project();
    expect((await record(dir)).code).toBe(0);
    const stopped = await cliWith(['run', 'release.dot', '--replay', 'release.cassette', '--set', 'audience=admins', '--logs-dir', 'replayed'], { cwd: dir, env: modelFreeEnv() });
    expect(stopped.code).toBe(1);
    const resumed = await cliWith(['resume', 'replayed'], { cwd: dir, env: modelFreeEnv({ OPENAI_API_KEY: KEY }) });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toBe(`orchestra: this run was replayed from the cassette ${join(dir, 'release.cassette')}; resuming it would call the models the cassette answered for. Replay it again:\n  orchestra run ${join(dir, 'release.dot')} --replay ${join(dir, 'release.cassette')}\n`);
  });

  it('a recording refused before the run starts leaves no cassette behind', async () => {
    const dir = project();
    const refused = await cliWith(['run', 'release.dot', '--model', 'scripted-model', '--backend', 'cli', '--record', 'release.cassette'], { cwd: dir, env: modelFreeEnv({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: KEY }) });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/runs on the cli backend, whose model traffic a cassette cannot hold: record and replay it on the chat or agent backend \(--backend\)\n$/);
    expect(refused.stderr).not.toContain('recorded the run');
    expect(existsSync(join(dir, 'release.cassette'))).toBe(false);
  });

  it('lenient: the same run goes on with the recorded replies, each difference a warning', async () => {
    const dir = project();
    expect((await record(dir)).code).toBe(0);
    const replayed = await cliWith(['run', 'release.dot', '--replay', 'release.cassette', '--replay-mode', 'lenient', '--set', 'audience=admins', '--logs-dir', 'replayed'], { cwd: dir, env: modelFreeEnv() });
    expect(replayed.code).toBe(0);
    const warnings = replayed.stderr.trim().split('\n');
    expect(warnings.map((w) => /^orchestra: warning: stage (\w+), model request (\d)/.exec(w)?.slice(1).join(' '))).toEqual(['draft 1', 'check 1', 'check 2']);
  });

  it('refuses a cassette from another pipeline before anything runs, and names the line of a damaged one (exit 2)', async () => {
    const dir = project();
    expect((await record(dir)).code).toBe(0);
    writeFileSync(join(dir, 'other.dot'), PIPELINE.replace('Write a release note', 'Write a short release note'));
    const foreign = await cliWith(['run', 'other.dot', '--replay', 'release.cassette', '--logs-dir', 'never'], { cwd: dir, env: modelFreeEnv() });
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toMatch(/^orchestra: .*release\.cassette was recorded from another pipeline \(Release, sha256 [0-9a-f]{12}…; this one is [0-9a-f]{12}…\): record it again with orchestra run --record\n$/);
    expect(existsSync(join(dir, 'never'))).toBe(false);

    const lines = readFileSync(join(dir, 'release.cassette'), 'utf8').split('\n');
    lines[3] = lines[3]!.slice(0, 20);
    writeFileSync(join(dir, 'release.cassette'), lines.join('\n'));
    const damaged = await cliWith(['run', 'release.dot', '--replay', 'release.cassette', '--logs-dir', 'never'], { cwd: dir, env: modelFreeEnv() });
    expect(damaged.code).toBe(2);
    expect(damaged.stderr).toMatch(/^orchestra: .*release\.cassette:4: the cassette is damaged: the line is not JSON/);
    expect(existsSync(join(dir, 'never'))).toBe(false);
  });

  it('refuses flags that do not go together (exit 2, nothing written)', async () => {
    const dir = project();
    const cases: [string[], RegExp][] = [
      [['--record', 'a.cassette', '--replay', 'b.cassette'], /use --record or --replay, not both/],
      [['--replay-mode', 'lenient'], /--replay-mode goes with --replay FILE/],
      [['--replay', 'a.cassette', '--replay-mode', 'loose'], /--replay-mode is "loose"; expected strict or lenient/],
      [['--replay', 'a.cassette', '--auto-approve'], /--replay answers the run's questions from the cassette/],
      [['--record', 'a.cassette', '--simulate'], /a simulated run has none/],
      [['--record', 'a.cassette', '--park'], /drop --park/],
      [['--record', 'a.cassette', '--store', 'runs'], /does not go with --store or --detach/],
      // A mistyped name must not overwrite the pipeline (or any file that is not a cassette).
      [['--model', 'm', '--record', 'release.dot'], /release\.dot exists and is not a cassette; --record writes a new file or replaces a cassette/],
    ];
    for (const [flags, message] of cases) {
      const result = await cliWith(['run', 'release.dot', ...flags], { cwd: dir, env: modelFreeEnv() });
      expect(result.code, flags.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    expect(readdirSync(dir).sort()).toEqual(['README.md', 'answers.json', 'release.dot']);
    expect(readFileSync(join(dir, 'release.dot'), 'utf8')).toBe(PIPELINE);
  });
});
