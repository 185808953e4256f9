import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isProcessAlive, readJournal } from '@orchestra/core/store';
import { BIN, ROOT, modelFreeEnv, orchestra, startOrchestra, startOrchestraIn, tempDir } from './cli-helpers.js';
import { spawn, spawnSync } from 'node:child_process';
import { cli, cliWith } from './in-process.js';

/**
 * A pipeline of one slow tool between start and exit; the tool logs its start and end to
 * `$ORCHESTRA_CTX_SIDE`. The first time it runs it holds until {@link release} (10 s at most);
 * a resumed copy does not wait.
 */
function slowToolPipeline(dir: string): string {
  const file = join(dir, 'slow.dot');
  // Marked as the first copy before its start is logged: a copy killed once it logged its start was the first.
  const first = 'if [ ! -e \\"$ORCHESTRA_CTX_SIDE.held\\" ]; then touch \\"$ORCHESTRA_CTX_SIDE.held\\"; first=1; fi';
  const hold = 'if [ -n \\"$first\\" ]; then n=0; while [ ! -e \\"$ORCHESTRA_CTX_SIDE.release\\" ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n+1)); done; fi';
  writeFileSync(
    file,
    `digraph Slow {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  work [shape=parallelogram, tool_command="${first}; echo start $$ >> \\"$ORCHESTRA_CTX_SIDE\\"; ${hold}; echo end $$ >> \\"$ORCHESTRA_CTX_SIDE\\"; pwd"]
  start -> work -> exit
}
`,
  );
  return file;
}

/** Lets the tool of {@link slowToolPipeline} logging to `side` go on. */
function release(side: string): void {
  writeFileSync(`${side}.release`, '');
}

async function until(test: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : [];
}

/** Running (a zombie, exited but not yet reaped by init, does not count). */
function alive(pid: number): boolean {
  return isProcessAlive(pid, null);
}

async function statusJson(dir: string): Promise<{ code: number; json: Record<string, unknown> }> {
  const r = await cli('status', dir, '--json');
  return { code: r.code, json: JSON.parse(r.stdout) as Record<string, unknown> };
}

describe('one owner per run', () => {
  it('a second resume of a run another process drives exits 2 naming its PID; the journal has no duplicate steps', async () => {
    const dir = tempDir();
    const side = join(dir, 'side.log');
    const file = slowToolPipeline(dir);
    const runDir = join(dir, 'run');
    const first = startOrchestra('run', file, '--quiet', '--logs-dir', runDir, '--set', `side=${side}`);
    await until(() => lines(side).length > 0, 'the tool to start');
    // The run is held: a second run in its directory, a resume and an answer are all refused, naming the holder.
    for (const args of [['resume', runDir], ['run', file, '--logs-dir', runDir], ['answer', runDir, 'yes']]) {
      const second = orchestra(...args);
      expect(second.code, args.join(' ')).toBe(2);
      expect(second.stderr).toContain(`in use by process ${first.child.pid}`);
    }
    // status reads freely and says who drives it.
    const live = await statusJson(runDir);
    expect(live.code).toBe(4);
    expect(live.json).toMatchObject({ state: 'running', owner: { pid: first.child.pid, alive: true } });
    release(side);
    expect((await first.done).code).toBe(0);
    const seqs = readJournal(runDir).entries.map((e) => e.seq);
    expect(seqs).toEqual([1, 2, 3]);
    expect(lines(side).filter((l) => l.startsWith('end'))).toHaveLength(1);
    expect(existsSync(join(runDir, 'run.lock'))).toBe(false);
  }, 30_000);

  it('after SIGKILL, resume stops the tool the dead run left running, so its side effect happens once per completed attempt', async () => {
    const dir = tempDir();
    const side = join(dir, 'side.log');
    const file = slowToolPipeline(dir);
    const runDir = join(dir, 'run');
    const first = startOrchestra('run', file, '--quiet', '--logs-dir', runDir, '--set', `side=${side}`);
    await until(() => lines(side).length > 0, 'the tool to start');
    const orphanPid = Number(lines(side)[0]?.split(' ')[1]);
    first.child.kill('SIGKILL');
    await first.done;
    expect(alive(orphanPid)).toBe(true); // the tool's group outlives orchestra (detached)
    const killed = await statusJson(runDir);
    expect(killed.code).toBe(5);
    expect(killed.json).toMatchObject({ state: 'stopped', owner: { alive: false }, resume_command: `orchestra resume ${runDir}` });

    const resumed = orchestra('resume', runDir, '--quiet');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(alive(orphanPid)).toBe(false);
    const log = lines(side);
    // The first copy started and was stopped before its end; the resumed copy ran whole: one end.
    expect(log.filter((l) => l.startsWith('start'))).toHaveLength(2);
    expect(log.filter((l) => l.startsWith('end'))).toEqual([`end ${log[1]?.split(' ')[1]}`]);
    const events = readFileSync(join(runDir, 'events.jsonl'), 'utf8');
    expect(events).toContain('"type":"run.orphans_stopped"');
    expect(events).toContain(`"pgid":${orphanPid}`);
    expect(existsSync(join(runDir, 'processes.json'))).toBe(false);
  }, 30_000);

  it('after SIGKILL, resume also stops a CLI agent the dead run left running (agent commands are recorded like tools)', async () => {
    const dir = tempDir();
    const side = join(dir, 'side.log');
    const agent = join(dir, 'agent.sh');
    // The first copy sleeps (and is killed meanwhile); the resumed copy does not.
    writeFileSync(agent, `#!/bin/sh\ncat > /dev/null\nif [ -e "${side}.held" ]; then echo "start $$" >> "${side}"; else touch "${side}.held"; echo "start $$" >> "${side}"; sleep 10; fi\necho "end $$" >> "${side}"\necho done\n`);
    chmodSync(agent, 0o755);
    writeFileSync(join(dir, 'orchestra.yaml'), `cli_agent:\n  command: [${agent}]\n  timeout: 20s\n`);
    const file = join(dir, 'agent.dot');
    writeFileSync(file, 'digraph A { start [shape=Mdiamond]; exit [shape=Msquare]; work [prompt="Do the work"]; start -> work -> exit }\n');
    const runDir = join(dir, 'run');
    const first = startOrchestraIn(dir, 'run', file, '--backend', 'cli', '--quiet', '--logs-dir', runDir);
    await until(() => lines(side).length > 0, 'the agent to start');
    const orphanPid = Number(lines(side)[0]?.split(' ')[1]);
    // Recorded before it ran: the group, its start time and the command.
    const recorded = JSON.parse(readFileSync(join(runDir, 'processes.json'), 'utf8')) as { processes: { pgid: number; node: string; command: string }[] };
    expect(recorded.processes).toEqual([expect.objectContaining({ pgid: orphanPid, node: 'work', command: agent })]);
    first.child.kill('SIGKILL');
    await first.done;
    expect(alive(orphanPid)).toBe(true);

    const resumed = spawnSync(process.execPath, [BIN, 'resume', runDir, '--quiet'], { cwd: dir, env: modelFreeEnv(), encoding: 'utf8' });
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(alive(orphanPid)).toBe(false);
    const log = lines(side);
    expect(log.filter((l) => l.startsWith('start'))).toHaveLength(2);
    expect(log.filter((l) => l.startsWith('end'))).toEqual([`end ${log[1]?.split(' ')[1]}`]);
    expect(readFileSync(join(runDir, 'events.jsonl'), 'utf8')).toContain(`"pgid":${orphanPid}`);
    expect(existsSync(join(runDir, 'processes.json'))).toBe(false);
    expect(readFileSync(join(runDir, 'work', 'response.md'), 'utf8')).toBe('done');
  }, 30_000);

  it('resume runs tools in the directory the run started in; --cwd overrides and says so', async () => {
    const dir = tempDir();
    const project = join(dir, 'project');
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(project);
    mkdirSync(elsewhere);
    const file = join(dir, 'gated.dot');
    writeFileSync(file, 'digraph G { start [shape=Mdiamond]; exit [shape=Msquare]; gate [shape=hexagon, label="Go?"]; work [shape=parallelogram, tool_command="pwd"]; start -> gate; gate -> work [label="[Y] Yes"]; work -> exit }\n');
    const parkIn = async (runDir: string) => (await cliWith(['run', file, '--park', '--quiet', '--logs-dir', runDir], { cwd: project })).code;

    const recorded = join(dir, 'recorded');
    expect(await parkIn(recorded)).toBe(3);
    expect((JSON.parse(readFileSync(join(recorded, 'manifest.json'), 'utf8')) as { workdir: string }).workdir).toBe(project);
    expect((await cli('answer', recorded, 'Y')).code).toBe(0);
    const resumed = await cli('resume', recorded, '--quiet'); // from the repository root
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(join(recorded, 'work', 'stdout.log'), 'utf8').trim()).toBe(project);

    const moved = join(dir, 'moved');
    expect(await parkIn(moved)).toBe(3);
    expect((await cli('answer', moved, 'Y')).code).toBe(0);
    const overridden = await cli('resume', moved, '--cwd', elsewhere);
    expect(overridden.code, overridden.stderr).toBe(0);
    expect(overridden.stderr).toContain(`tool commands run in ${elsewhere} (the run started in ${project})`);
    expect(readFileSync(join(moved, 'work', 'stdout.log'), 'utf8').trim()).toBe(elsewhere);
    const missing = await cli('resume', moved, '--cwd', join(dir, 'nowhere'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`--cwd ${join(dir, 'nowhere')}: ${join(dir, 'nowhere')} does not exist`);
  }, 30_000);
});

describe('orchestra status --json', () => {
  it('reports finished, failed and parked runs with the documented exit codes', async () => {
    const dir = tempDir();
    const done = join(dir, 'done');
    expect((await cli('run', 'fixtures/branching.dot', '--simulate', '--quiet', '--logs-dir', done)).code).toBe(0);
    expect(await statusJson(done)).toMatchObject({ code: 0, json: { state: 'completed', checkpoint_status: 'completed', owner: null, resume_command: null } });

    const failing = join(dir, 'failing.dot');
    writeFileSync(failing, 'digraph F { start [shape=Mdiamond]; exit [shape=Msquare]; boom [shape=parallelogram, tool_command="exit 3"]; start -> boom -> exit }\n');
    const failed = join(dir, 'failed');
    expect((await cli('run', failing, '--quiet', '--logs-dir', failed)).code).toBe(1);
    const f = await statusJson(failed);
    expect(f.code).toBe(1);
    expect(f.json).toMatchObject({ state: 'failed', failure_reason: expect.stringContaining('exit code 3') });

    const parked = join(dir, 'parked');
    expect((await cli('run', 'fixtures/human-gate.dot', '--simulate', '--park', '--quiet', '--logs-dir', parked)).code).toBe(3);
    const p = await statusJson(parked);
    expect(p.code).toBe(3);
    expect(p.json).toMatchObject({ state: 'parked', pending: [{ id: expect.any(String), answer: null }], resume_command: `orchestra resume ${parked}` });
    const gate = (p.json.pending as { id: string; options: { key: string }[] }[])[0];
    const key = gate?.options[0]?.key ?? '';
    expect((await cli('answer', parked, key)).code).toBe(0);
    // An answer already given is shown, and a second one needs --replace.
    expect((await statusJson(parked)).json).toMatchObject({ pending: [{ answer: expect.stringContaining(key) }] });
    const again = await cli('answer', parked, key);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already has an answer');
    expect((await cli('answer', parked, key, '--replace')).code).toBe(0);
    const human = await cli('status', parked);
    expect(human.stdout).toContain('answered:');
    // `orchestra resume <dir>` alone continues it the way it started (--simulate, --park recorded).
    const resumed = await cli('resume', parked, '--quiet');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((await statusJson(parked)).code).toBe(0);
  }, 60_000);

  it('refuses, as resume does, a journal that names a node the run\'s pipeline does not have (exit 2)', async () => {
    const dir = tempDir();
    const parked = join(dir, 'parked');
    expect((await cli('run', 'fixtures/human-gate.dot', '--simulate', '--park', '--quiet', '--logs-dir', parked)).code).toBe(3);
    const copy = join(parked, 'pipeline.dot');
    // The node the first step led to (where the run waits) is renamed in the copy.
    const first = readJournal(parked).entries[0];
    const edited = readFileSync(copy, 'utf8').replaceAll(String(first?.next), 'renamed_node');
    writeFileSync(copy, edited);
    // The copy no longer has the hash the manifest recorded: both refuse it for that first.
    for (const command of ['status', 'resume']) {
      const r = await cli(command, parked);
      expect(r.code, command).toBe(2);
      expect(r.stderr, command).toContain('pipeline.dot is not the pipeline the run was started with');
    }
    // With the manifest's hash made to match, the journal still names a node the copy lacks.
    const manifestFile = join(parked, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(manifestFile, JSON.stringify({ ...manifest, pipeline_sha256: createHash('sha256').update(edited).digest('hex') }));
    for (const command of ['status', 'resume']) {
      const r = await cli(command, parked);
      expect(r.code, command).toBe(2);
      expect(r.stderr, command).toMatch(new RegExp(`node "${String(first?.next)}".* (is not in the pipeline|which the pipeline does not have)`));
    }
  });
});

describe('overwrites', () => {
  it('refuses a non-empty directory that is not a run as --logs-dir, touching nothing', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'status.json'), 'mine');
    const r = await cli('run', 'fixtures/branching.dot', '--simulate', '--quiet', '--logs-dir', dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not empty and holds no run');
    expect(readFileSync(join(dir, 'status.json'), 'utf8')).toBe('mine');
  });
});

describe('signals', () => {
  it('a loop of nodes that never wait still stops at SIGINT, and SIGHUP stops a run like SIGTERM', async () => {
    const dir = tempDir();
    const loop = join(dir, 'loop.dot');
    writeFileSync(loop, 'digraph L { graph [default_max_visits=0]; start [shape=Mdiamond]; exit [shape=Msquare]; a [shape=diamond]; b [shape=diamond]; start -> a; a -> b; b -> a; b -> exit [condition="outcome=fail"] }\n');
    for (const signal of ['SIGINT', 'SIGHUP'] as const) {
      const runDir = join(dir, signal);
      const child = spawn(process.execPath, [BIN, 'run', loop, '--quiet', '--logs-dir', runDir], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
      const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      await until(() => existsSync(join(runDir, 'journal.jsonl')) && readFileSync(join(runDir, 'journal.jsonl'), 'utf8').length > 1000, 'the loop to run');
      child.kill(signal);
      const stopped = await Promise.race([done, new Promise((r) => setTimeout(() => r('still running'), 10_000))]);
      if (stopped === 'still running') child.kill('SIGKILL'); // never leave a looping process behind
      expect(stopped).toBe(130);
      // Said at once, before the run has stopped: what happens now, and how not to wait.
      expect(stderr).toContain(`orchestra: stopping at the next safe point... (${signal === 'SIGINT' ? 'Ctrl-C' : signal} again to stop at once)\n`);
      expect(stderr.indexOf('stopping at the next safe point')).toBeLessThan(stderr.indexOf('interrupted; the checkpoint is saved'));
      expect((await statusJson(runDir)).json).toMatchObject({ state: 'stopped', checkpoint_status: 'interrupted' });
    }
  }, 60_000);
});
