import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { RunContext, type StageStatus } from '@orchestra/core';
import type { RunView } from '@orchestra/core/handlers';
import { describe, expect, it } from 'vitest';
import { CHARS_PER_TOKEN, PREAMBLE_TOKEN_BUDGETS, buildPreamble, type PreambleMode } from '../../src/fidelity/preamble.js';
import { MAX_THREADS, ThreadSessions, compactHistory } from '../../src/fidelity/thread-sessions.js';
import { tempDir, useTempDirs } from '../helpers.js';

useTempDirs();

/** A run of `stages` completed stages, each with a response.md of `responseChars` characters. */
function runOf(stages: number, responseChars = 50): { run: RunView; context: RunContext } {
  const logsRoot = tempDir();
  const completedNodes = ['start'];
  const nodeOutcomes: Record<string, StageStatus> = { start: 'success' };
  for (let i = 1; i <= stages; i++) {
    const id = `stage_${i}`;
    completedNodes.push(id);
    nodeOutcomes[id] = i === 2 ? 'fail' : 'success';
    mkdirSync(join(logsRoot, id));
    writeFileSync(join(logsRoot, id, 'response.md'), `response of ${id} `.padEnd(responseChars, 'x'));
  }
  const context = new RunContext({ 'graph.goal': 'Build a bridge', ticket: 'ABC-1', long: 'y'.repeat(5000), 'internal.retry_count.a': 2, current_node: 'now' });
  return { run: { id: 'run-1', logsRoot, completedNodes, nodeOutcomes, resumedAfter: 0 }, context };
}

const MODES: PreambleMode[] = ['truncate', 'compact', 'summary:low', 'summary:medium', 'summary:high'];

describe('buildPreamble (spec §5.4)', () => {
  it('truncate: only the goal and the run id', () => {
    const { run, context } = runOf(3);
    expect(buildPreamble({ mode: 'truncate', run, context, nodeId: 'next' })).toBe('You are working on stage "next" of a multi-stage pipeline (run run-1).\nPipeline goal: Build a bridge');
  });

  it('compact: completed stages with outcomes and the context values, without engine-internal keys', () => {
    const { run, context } = runOf(3);
    const text = buildPreamble({ mode: 'compact', run, context, nodeId: 'next' });
    expect(text).toContain('- stage_1: success\n- stage_2: fail\n- stage_3: success');
    expect(text).toContain('- ticket = ABC-1');
    expect(text).not.toContain('internal.retry_count');
    expect(text).not.toContain('current_node');
    expect(text).not.toContain('response of');
  });

  it('summary modes tell the run in words, with more detail and earlier responses as the mode rises', () => {
    const { run, context } = runOf(20, 2000);
    const low = buildPreamble({ mode: 'summary:low', run, context, nodeId: 'next' });
    const medium = buildPreamble({ mode: 'summary:medium', run, context, nodeId: 'next' });
    const high = buildPreamble({ mode: 'summary:high', run, context, nodeId: 'next' });
    expect(low).toContain('21 stage(s) have completed, 1 of them failed (stage_2)');
    expect(low).toContain('(the last 5)');
    expect(medium).toContain('(the last 15)');
    expect(high).not.toContain('(the last');
    expect(low.match(/- stage_\d+: response of/g)).toHaveLength(1);
    expect(medium.match(/- stage_\d+: response of/g)?.length).toBeGreaterThan(1);
    expect(high.length).toBeGreaterThan(medium.length);
    expect(medium.length).toBeGreaterThan(low.length);
  });

  it('never exceeds its token budget, however large the run', () => {
    const { run, context } = runOf(200, 5000);
    for (const mode of MODES) {
      const text = buildPreamble({ mode, run, context, nodeId: 'next' });
      expect(text.length, mode).toBeLessThanOrEqual(PREAMBLE_TOKEN_BUDGETS[mode] * CHARS_PER_TOKEN);
    }
  });
});

describe('ThreadSessions and compactHistory', () => {
  it('keeps a stage\'s session under its thread and its node id, per run', () => {
    const sessions = new ThreadSessions();
    sessions.set('run-1', 'main', 'plan', [new HumanMessage('hi'), new AIMessage('hello')]);
    expect(sessions.get('run-1', 'main')?.map((m) => m.text)).toEqual(['hi', 'hello']);
    expect(sessions.get('run-1', 'plan')?.map((m) => m.text)).toEqual(['hi', 'hello']);
    expect(sessions.get('run-2', 'main')).toBeUndefined();
    // A copy: changing it does not change the stored session.
    sessions.get('run-1', 'main')?.push(new HumanMessage('more'));
    expect(sessions.get('run-1', 'main')).toHaveLength(2);
  });

  it('forgets the least recently used threads past its capacity', () => {
    const sessions = new ThreadSessions();
    for (let i = 0; i < MAX_THREADS + 10; i++) sessions.set('r', `t${i}`, `t${i}`, [new HumanMessage(String(i))]);
    expect(sessions.get('r', 't0')).toBeUndefined();
    expect(sessions.get('r', `t${MAX_THREADS + 9}`)).toBeDefined();
  });

  it('drops the oldest exchanges of a long history, keeping the system message and whole exchanges', () => {
    const history = [
      new SystemMessage('system'),
      new HumanMessage('a'.repeat(100)),
      new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'read_file', args: { path: 'x' } }] }),
      new ToolMessage({ content: 'b'.repeat(100), tool_call_id: 'c1' }),
      new AIMessage('done'),
      new HumanMessage('second question'),
      new AIMessage('second answer'),
    ];
    const kept = compactHistory(history, 60);
    expect(kept.map((m) => m.getType())).toEqual(['system', 'human', 'ai']);
    expect(kept[1]?.text).toBe('second question');
    expect(compactHistory(history, 1_000_000)).toHaveLength(history.length);
  });
});
