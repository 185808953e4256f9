import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isProcessAlive } from '@orchestra/core/store';
import { startOrchestra, tempDir } from './cli-helpers.js';
import { cli } from './in-process.js';

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

describe('sub-pipeline node, black box', () => {
  it('SIGKILL while the child runs a tool, then resume: the same child run goes on and the tool ends once', async () => {
    const dir = tempDir();
    const side = join(dir, 'side.log');
    // The tool sleeps the first time (killed meanwhile), not when the resumed run starts it again.
    const slept = join(dir, 'slept');
    writeFileSync(
      join(dir, 'child.dot'),
      `digraph Child { start [shape=Mdiamond]; exit [shape=Msquare]; slow [shape=parallelogram, tool_command="if [ -e ${slept} ]; then echo start $$ >> ${side}; else touch ${slept}; echo start $$ >> ${side}; sleep 10; fi; echo end $$ >> ${side}"]; start -> slow -> exit }\n`,
    );
    const parent = join(dir, 'parent.dot');
    writeFileSync(parent, 'digraph Parent { start [shape=Mdiamond]; exit [shape=Msquare]; sub [type="pipeline", pipeline="child.dot"]; after [shape=parallelogram, tool_command="echo after"]; start -> sub -> after -> exit }\n');
    const runDir = join(dir, 'run');
    const first = startOrchestra('run', parent, '--quiet', '--logs-dir', runDir);
    await until(() => lines(side).length > 0, 'the child tool to start');
    const orphan = Number(lines(side)[0]?.split(' ')[1]);
    first.child.kill('SIGKILL');
    await first.done;

    const resumed = await cli('resume', runDir, '--quiet');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(isProcessAlive(orphan, null)).toBe(false);
    const log = lines(side);
    expect(log.filter((l) => l.startsWith('start'))).toHaveLength(2);
    expect(log.filter((l) => l.startsWith('end'))).toHaveLength(1);
    // One child run, resumed in place (its events say the orphan was stopped), not a second one.
    expect(existsSync(join(runDir, 'sub', 'run-2'))).toBe(false);
    expect(readFileSync(join(runDir, 'sub', 'run-1', 'events.jsonl'), 'utf8')).toContain(`"pgid":${orphan}`);
    expect(readFileSync(join(runDir, 'after', 'status.json'), 'utf8')).toContain('"outcome": "success"');
  }, 30_000);

  it('manager loop: SIGKILL while the child runs, then resume: the manager supervises the same child run to its end', async () => {
    const dir = tempDir();
    const side = join(dir, 'side.log');
    // The tool sleeps the first time (killed meanwhile), not when the resumed run starts it again.
    const slept = join(dir, 'slept');
    writeFileSync(
      join(dir, 'child.dot'),
      `digraph Child { start [shape=Mdiamond]; exit [shape=Msquare]; slow [shape=parallelogram, tool_command="if [ -e ${slept} ]; then echo start $$ >> ${side}; else touch ${slept}; echo start $$ >> ${side}; sleep 10; fi; echo end $$ >> ${side}"]; start -> slow -> exit }\n`,
    );
    const parent = join(dir, 'parent.dot');
    writeFileSync(parent, 'digraph Parent { graph [stack.child_dotfile="child.dot"]; start [shape=Mdiamond]; exit [shape=Msquare]; boss [shape=house, manager.poll_interval="50ms"]; start -> boss -> exit }\n');
    const runDir = join(dir, 'run');
    const first = startOrchestra('run', parent, '--quiet', '--logs-dir', runDir);
    await until(() => lines(side).length > 0, 'the child tool to start');
    const orphan = Number(lines(side)[0]?.split(' ')[1]);
    first.child.kill('SIGKILL');
    await first.done;

    const resumed = await cli('resume', runDir, '--quiet');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(isProcessAlive(orphan, null)).toBe(false);
    expect(lines(side).filter((l) => l.startsWith('end'))).toHaveLength(1);
    expect(existsSync(join(runDir, 'boss', 'child-2'))).toBe(false);
    const checkpoint = JSON.parse(readFileSync(join(runDir, 'checkpoint.json'), 'utf8')) as { context: Record<string, unknown> };
    expect(checkpoint.context).toMatchObject({ 'stack.child.status': 'completed', 'stack.child.logs_root': join(runDir, 'boss', 'child-1') });
  }, 30_000);

  it('manager loop: the child finishes, manager.max_cycles runs out, manager.stop_condition holds', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'quick.dot'), 'digraph Quick { start [shape=Mdiamond]; exit [shape=Msquare]; a [shape=parallelogram, tool_command="echo a"]; start -> a -> exit }\n');
    writeFileSync(join(dir, 'slow.dot'), 'digraph Slow { start [shape=Mdiamond]; exit [shape=Msquare]; a [shape=parallelogram, tool_command="echo a"]; b [shape=parallelogram, tool_command="sleep 10"]; start -> a -> b -> exit }\n');
    const parent = (name: string, child: string, attrs: string) => {
      const file = join(dir, `${name}.dot`);
      writeFileSync(file, `digraph P { graph [stack.child_dotfile="${child}"]; start [shape=Mdiamond]; exit [shape=Msquare]; boss [shape=house, manager.poll_interval="50ms"${attrs}]; start -> boss -> exit }\n`);
      return file;
    };
    const finished = await cli('run', parent('finishes', 'quick.dot', ''), '--quiet', '--logs-dir', join(dir, 'r1'));
    expect(finished.code, finished.stderr).toBe(0);

    const started = Date.now();
    const cycles = await cli('run', parent('cycles', 'slow.dot', ', manager.max_cycles=4'), '--quiet', '--logs-dir', join(dir, 'r2'));
    expect(cycles.code).toBe(1);
    expect(cycles.stdout).toContain('reason: boss failed: manager.max_cycles (4) reached before the child ended');
    expect(Date.now() - started).toBeLessThan(8000); // the 10 s child was stopped, not waited for

    const stop = await cli('run', parent('stops', 'slow.dot', ', manager.stop_condition="context.stack.child.current_node=b"'), '--quiet', '--logs-dir', join(dir, 'r3'));
    expect(stop.code, stop.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'r3', 'boss', 'child-1', 'checkpoint.json'), 'utf8'))).toMatchObject({ status: 'interrupted', next_node: 'b' });
  }, 30_000);

  it('a human gate in the child parks the parent; the answer given to the parent reaches the child on resume', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'child.dot'),
      'digraph Child { start [shape=Mdiamond]; exit [shape=Msquare]; ok [shape=hexagon, label="Ship it?"]; start -> ok; ok -> exit [label="[Y] Yes"]; ok -> exit [label="[N] No"] }\n',
    );
    const parent = join(dir, 'parent.dot');
    writeFileSync(parent, 'digraph Parent { start [shape=Mdiamond]; exit [shape=Msquare]; sub [type="pipeline", pipeline="child.dot"]; start -> sub -> exit }\n');
    const runDir = join(dir, 'run');
    const parked = await cli('run', parent, '--park', '--quiet', '--logs-dir', runDir);
    expect(parked.code, parked.stderr).toBe(3);
    expect(parked.stderr).toContain('Ship it?');
    expect((await cli('answer', runDir, 'Y')).code).toBe(0);
    const resumed = await cli('resume', runDir, '--quiet');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(join(runDir, 'sub', 'run-1', 'interviews.jsonl'), 'utf8')).toContain('Ship it?');
  }, 30_000);
});
