import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, startOrchestra, tempDir } from './cli-helpers.js';
import { cli, cliWith } from './in-process.js';

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('orchestra run', () => {
  it('runs a pipeline in simulation: exit 0, a line per stage, a summary, the run directory', async () => {
    const dir = join(tempDir(), 'run');
    const r = await cli('run', 'fixtures/branching.dot', '--simulate', '--logs-dir', dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Running Branch \(/);
    for (const id of ['start', 'plan', 'implement', 'validate', 'gate', 'exit']) expect(r.stdout).toMatch(new RegExp(`✓ ${id}\\s+\\d+(ms|\\.\\ds)`));
    expect(r.stdout).toMatch(/✔ success: 6 nodes run, 0 retries, /);
    expect(r.stdout).toContain(`run directory: ${dir}`);

    expect(json(join(dir, 'manifest.json'))).toMatchObject({ format: 'orchestra.run/1', pipeline: 'Branch', goal: 'Implement and validate a feature', start_node: 'start' });
    const checkpoint = json(join(dir, 'checkpoint.json'));
    expect(checkpoint).toMatchObject({ status: 'completed', current_node: 'exit', next_node: null, completed_nodes: ['start', 'plan', 'implement', 'validate', 'gate', 'exit'] });
    expect(Object.keys(checkpoint)).toEqual(expect.arrayContaining(['timestamp', 'current_node', 'completed_nodes', 'node_retries', 'context', 'logs']));
    expect(json(join(dir, 'plan', 'status.json'))).toEqual({
      outcome: 'success',
      preferred_label: '',
      suggested_next_ids: [],
      context_updates: { last_stage: 'plan', last_response: '[Simulated] Response for stage: plan' },
      notes: 'Stage completed: plan',
    });
    expect(readFileSync(join(dir, 'plan', 'prompt.md'), 'utf8')).toBe('Plan the implementation');
    expect(readFileSync(join(dir, 'plan', 'response.md'), 'utf8')).toBe('[Simulated] Response for stage: plan');
    expect(readFileSync(join(dir, 'pipeline.dot'), 'utf8')).toBe(readFileSync('fixtures/branching.dot', 'utf8'));
    const events = readFileSync(join(dir, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(events[0].type).toBe('pipeline.started');
    expect(events.at(-1).type).toBe('pipeline.completed');
    expect(readFileSync(join(dir, 'journal.jsonl'), 'utf8').trim().split('\n')).toHaveLength(6);
  });

  it('uses .orchestra/runs/<timestamp>-<pipeline> under the current directory by default', async () => {
    const cwd = realpathSync(tempDir());
    const r = await cliWith(['run', join(ROOT, 'fixtures', 'simple.dot'), '--simulate', '--quiet'], { cwd });
    expect(r.code).toBe(0);
    const dir = /run directory: (.*)/.exec(r.stdout)?.[1] ?? '';
    expect(dir).toMatch(/\/\.orchestra\/runs\/\d{8}-\d{6}-\d{3}-Simple$/);
    expect(dir.startsWith(join(cwd, '.orchestra', 'runs'))).toBe(true);
    expect(existsSync(join(dir, 'checkpoint.json'))).toBe(true);
  });

  it('--quiet prints only the summary; --json prints one event per line', async () => {
    const quiet = await cli('run', 'fixtures/simple.dot', '--simulate', '--quiet', '--logs-dir', join(tempDir(), 'q'));
    expect(quiet.stdout.split('\n')[0]).toMatch(/^✔ success: 4 nodes run/);
    const events = await cli('run', 'fixtures/simple.dot', '--simulate', '--json', '--logs-dir', join(tempDir(), 'j'));
    expect(events.code).toBe(0);
    const parsed = events.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(parsed[0]).toMatchObject({ type: 'pipeline.started', pipeline: 'Simple' });
    expect(parsed.at(-1)).toMatchObject({ type: 'pipeline.completed', status: 'success', nodesRun: 4 });
    expect(parsed.filter((e) => e.type === 'stage.completed').map((e) => e.nodeId)).toEqual(['start', 'run_tests', 'report', 'exit']);
  });

  it('--set puts values into the context; tools see them only as environment variables', async () => {
    const dir = join(tempDir(), 'run');
    const r = await cli('run', 'fixtures/tools.dot', '--set', 'who=$(echo injected); "quoted"', '--logs-dir', dir, '--quiet');
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'greet', 'stdout.log'), 'utf8')).toBe('hello $(echo injected); "quoted"\n');
    expect(json(join(dir, 'checkpoint.json')).context.who).toBe('$(echo injected); "quoted"');
  });

  it('exits 1 when the pipeline fails, with the failing stage and its stderr', async () => {
    const dir = join(tempDir(), 'run');
    const r = await cli('run', 'fixtures/failing.dot', '--logs-dir', dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ build .* failed: tool_command failed \(exit code 3\): error: missing semicolon/);
    expect(r.stdout).toContain('✘ failed: 2 nodes run');
    expect(json(join(dir, 'checkpoint.json'))).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining('build failed') });
    expect(json(join(dir, 'build', 'status.json'))).toMatchObject({ outcome: 'fail', failure_reason: expect.stringContaining('exit code 3') });
  });

  it('exits 1 for an invalid pipeline and 2 for a missing file, a bad --set or a missing model', async () => {
    const invalid = await cli('run', 'fixtures/invalid/lint-errors.dot', '--simulate');
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('error [reachability]');
    expect(invalid.stderr).toContain('nothing was run');
    expect((await cli('run', 'fixtures/nope.dot')).code).toBe(2);
    expect((await cli('run', 'fixtures/simple.dot', '--set', 'novalue')).code).toBe(2);
    const noModel = await cli('run', 'fixtures/simple.dot', '--logs-dir', join(tempDir(), 'x'));
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toContain('node run_tests has no model and no provider is configured: set OPENAI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible server) and pass --model <name>');
    expect(noModel.stderr).toContain('(or run with --simulate to try the pipeline with simulated responses)');
    expect(noModel.stderr.trim().split('\n')).toHaveLength(1);
    expect(noModel.stdout + noModel.stderr).not.toMatch(/\bat .*\.ts:\d+/);
  });

  it('stops at a safe point on SIGINT (exit 130) and resume finishes the run', async () => {
    const dir = join(tempDir(), 'run');
    const run = startOrchestra('run', 'fixtures/tools.dot', '--set', 'pause=2', '--logs-dir', dir);
    await waitFor(() => existsSync(join(dir, 'pause')));
    run.child.kill('SIGINT');
    const stopped = await run.done;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain(`orchestra resume ${dir}`);
    expect(json(join(dir, 'checkpoint.json'))).toMatchObject({ status: 'interrupted', next_node: 'pause', completed_nodes: ['start', 'count', 'greet', 'check'] });

    const resumed = await cli('resume', dir, '--quiet');
    expect(resumed.code).toBe(0);
    expect(json(join(dir, 'checkpoint.json'))).toMatchObject({ status: 'completed', completed_nodes: ['start', 'count', 'greet', 'check', 'pause', 'exit'] });
    const again = await cli('resume', dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already ended');
  }, 30_000);

  it('refuses to resume from a corrupt or foreign checkpoint and leaves it untouched', async () => {
    const dir = join(tempDir(), 'run');
    expect((await cli('run', 'fixtures/simple.dot', '--simulate', '--quiet', '--logs-dir', dir)).code).toBe(0);
    const text = readFileSync(join(dir, 'checkpoint.json'), 'utf8');
    writeFileSync(join(dir, 'checkpoint.json'), text.slice(0, text.length / 2));
    const torn = await cli('resume', dir, '--simulate');
    expect(torn.code).toBe(2);
    expect(torn.stderr).toMatch(/checkpoint\.json is corrupt or truncated/);
    expect(readFileSync(join(dir, 'checkpoint.json'), 'utf8')).toBe(text.slice(0, text.length / 2));
    writeFileSync(join(dir, 'checkpoint.json'), '{"hello": 1}');
    const foreign = await cli('resume', dir, '--simulate');
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toMatch(/is not an orchestra checkpoint/);
    expect((await cli('resume', join(dir, 'nope'))).code).toBe(2);
  });
});

async function waitFor(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
