import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CodergenBackend } from '../../src/index.js';
import { createCodergenHandler } from '../../src/handlers.js';
import { readCheckpoint } from '../../src/store.js';
import { dot, run, tempDir, useTempDirs } from './engine-helpers.js';

useTempDirs();

/** A child pipeline of tool nodes (id → command, in a chain) next to a parent whose manager node has `attrs`. */
function manager(child: Record<string, string>, attrs: string) {
  const dir = tempDir();
  const ids = Object.keys(child);
  const nodes = ids.map((id) => `  ${id} [shape=parallelogram, tool_command="${child[id]}"]`).join('\n');
  writeFileSync(join(dir, 'child.dot'), dot(`${nodes}\n  start -> ${ids.join(' -> ')} -> exit`, 'Child'));
  const source = dot(`  boss [shape=house, ${attrs}]\n  start -> boss -> exit`, 'Parent', 'stack.child_dotfile="child.dot"');
  return { dir, source, sourceFile: join(dir, 'parent.dot') };
}

describe('manager loop (shape=house, spec §4.11)', () => {
  it('starts the child, observes it into stack.child.* and succeeds when it completes', async () => {
    const m = manager({ a: 'echo a', b: 'echo b' }, 'manager.poll_interval="20ms"');
    const { result, logsRoot } = await run(m.source, { sourceFile: m.sourceFile, source: m.source });
    expect(result.status).toBe('success');
    expect(result.context).toMatchObject({ 'stack.child.status': 'completed', 'stack.child.outcome': 'success', 'stack.child.completed_nodes': 4, 'stack.child.logs_root': join(logsRoot, 'boss', 'child-1') });
    expect(readCheckpoint(join(logsRoot, 'boss', 'child-1'))?.status).toBe('completed');
  });

  it("fails with the child's reason when the child fails", async () => {
    const m = manager({ a: 'exit 3' }, 'manager.poll_interval="20ms"');
    const { result } = await run(m.source, { sourceFile: m.sourceFile });
    expect(result.status).toBe('fail');
    expect(result.failureReason).toMatch(/^boss failed: the child pipeline failed: a failed: tool_command failed \(exit code 3\)/);
  });

  it('stops at manager.max_cycles, and stops the child (resumable, not failed)', async () => {
    const m = manager({ a: 'sleep 5' }, 'manager.poll_interval="50ms", manager.max_cycles=3');
    const started = Date.now();
    const { result, logsRoot } = await run(m.source, { sourceFile: m.sourceFile });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(result.failureReason).toContain('manager.max_cycles (3) reached before the child ended');
    expect(readCheckpoint(join(logsRoot, 'boss', 'child-1'))?.status).toBe('interrupted');
  });

  it('ends with success when manager.stop_condition holds on the observed keys', async () => {
    const m = manager({ a: 'echo a', b: 'sleep 5' }, 'manager.poll_interval="30ms", manager.stop_condition="context.stack.child.current_node=b"');
    const { result } = await run(m.source, { sourceFile: m.sourceFile });
    expect(result.status).toBe('success');
    expect(result.context['stack.child.current_node']).toBe('b');
  });

  it('steers: writes manager.instruction into the active stage, and an LLM stage ends its prompt with what it finds there', async () => {
    const m = manager({ a: 'sleep 1' }, 'manager.poll_interval="30ms", manager.actions="observe,steer,wait", manager.instruction="Keep it short."');
    const { logsRoot } = await run(m.source, { sourceFile: m.sourceFile });
    expect(readFileSync(join(logsRoot, 'boss', 'child-1', 'a', 'steer.md'), 'utf8')).toBe('Keep it short.\n');

    const prompts: string[] = [];
    const backend: CodergenBackend = { run: async ({ prompt }) => (prompts.push(prompt), 'ok') };
    const logs = join(tempDir(), 'run');
    const llm = dot('  write [prompt="Write it"]\n  start -> write -> exit');
    // The instruction is there before the stage starts (as a supervisor leaves it).
    const leave = () => {
      mkdirSync(join(logs, 'write'), { recursive: true });
      writeFileSync(join(logs, 'write', 'steer.md'), 'Use bullet points.\n');
    };
    const first = await run(llm, { logsRoot: logs, handlers: { codergen: createCodergenHandler(backend) }, onEvent: (e) => e.type === 'pipeline.started' && leave() });
    expect(first.result.status).toBe('success');
    expect(prompts[0]).toBe('Write it\n\n## Instruction from the supervisor\n\nUse bullet points.');
  });

  it('refuses, before the run starts, a manager with no child pipeline (lint rule manager_has_child)', async () => {
    await expect(run(dot('  boss [shape=house]\n  start -> boss -> exit'))).rejects.toThrow(/"rule":"manager_has_child","severity":"error","message":"manager node boss has no child pipeline to supervise/);
  });
});
