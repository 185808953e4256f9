import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@orchestra/core';
import { createRunRenderer } from '../src/render/run-renderer.js';

const at = '2026-11-23T00:00:00.000Z';

describe('run renderer: the live indicator around questions', () => {
  it('clears the indicator for a question and brings it back while the stage goes on (an agent replying)', () => {
    let stderr = '';
    const renderer = createRunRenderer({ stdout: () => {}, stderr: (t) => (stderr += t) }, { mode: 'normal', live: true });
    const spinnerShown = () => /\r\x1b\[2K {2}. refine\s/.test(stderr);
    const events: RunEvent[] = [
      { type: 'stage.started', nodeId: 'refine', label: 'Refine', handlerType: 'codergen', index: 2, attempt: 1, at },
      { type: 'interview.started', nodeId: 'refine', questionText: 'Hi', questionType: 'FREEFORM', at },
    ];
    for (const e of events) renderer.onEvent(e);
    expect(spinnerShown()).toBe(true);
    expect(stderr.endsWith('\r\x1b[2K')).toBe(true); // cleared for the question
    stderr = '';
    renderer.onEvent({ type: 'human.interaction', nodeId: 'refine', questionText: 'Hi', questionType: 'FREEFORM', answerValue: 'more', answerText: 'more', selectedKey: '', selectedLabel: '', turn: 1, at });
    expect(spinnerShown()).toBe(true);
    stderr = '';
    renderer.onEvent({ type: 'stage.completed', nodeId: 'refine', index: 2, status: 'success', durationMs: 5, at });
    expect(stderr).toBe('\r\x1b[2K');
    stderr = '';
    // An answer recorded after its stage ended brings nothing back.
    renderer.onEvent({ type: 'human.interaction', nodeId: 'refine', questionText: 'Hi', questionType: 'FREEFORM', answerValue: 'x', answerText: 'x', selectedKey: '', selectedLabel: '', at });
    expect(stderr).toBe('');
    renderer.stop();
  });
});

describe('run renderer: colour', () => {
  const events: RunEvent[] = [
    { type: 'pipeline.started', pipeline: 'Evil\x1b]0;title\x07', logsRoot: '/tmp/r', resumed: false, startNode: 'start', at },
    { type: 'stage.completed', nodeId: 'build', index: 1, status: 'success', durationMs: 1200, at },
    { type: 'stage.failed', nodeId: 'test', index: 2, failureReason: 'exit code 1', willRetry: false, durationMs: 30, at },
  ];
  const render = (colour: boolean) => {
    let stdout = '';
    const renderer = createRunRenderer({ stdout: (t) => (stdout += t), stderr: () => {} }, { mode: 'normal', live: false, colour });
    for (const e of events) renderer.onEvent(e);
    renderer.summary({ status: 'fail', completedNodes: ['start', 'build'], context: {}, logsRoot: '/tmp/r', retries: 0, durationMs: 1300, failureReason: 'test failed' });
    return stdout;
  };

  it('paints marks, durations, failures and the summary when on, and nothing when off', () => {
    const on = render(true);
    expect(on).toContain('\x1b[32m✓\x1b[39m build');
    expect(on).toContain('\x1b[31m✗\x1b[39m test');
    expect(on).toContain('\x1b[31m✘ failed\x1b[39m');
    expect(on).toContain('\x1b[2m   1.2s\x1b[22m');
    const off = render(false);
    expect(off).not.toMatch(/\x1b\[\d+m/);
    expect(off.split('\n').slice(1, 4)).toEqual([`  ✓ ${'build'.padEnd(24)}    1.2s`, `  ✗ ${'test'.padEnd(24)}    30ms  failed: exit code 1`, '✘ failed: 2 nodes run, 0 retries, 1.3s']);
  });

  it('shows a pipeline name with control characters escaped, not obeyed', () => {
    expect(render(false).split('\n')[0]).toBe('Running Evil\\e]0;title\\x07 (/tmp/r)');
  });
});

describe('colourEnabled', () => {
  it('FORCE_COLOR wins, then NO_COLOR, then only a terminal that is not dumb', async () => {
    const { colourEnabled } = await import('../src/render/colour.js');
    const tty = { isTTY: true };
    const pipe = { isTTY: false };
    expect(colourEnabled(tty, {})).toBe(true);
    expect(colourEnabled(pipe, {})).toBe(false);
    expect(colourEnabled(tty, { TERM: 'dumb' })).toBe(false);
    expect(colourEnabled(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colourEnabled(tty, { NO_COLOR: '' })).toBe(true); // set but empty: no-color.org says it does not count
    expect(colourEnabled(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(colourEnabled(pipe, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
    expect(colourEnabled(tty, { FORCE_COLOR: '0' })).toBe(false);
  });
});

describe('run renderer: parallel branches', () => {
  it('indents branch stages under their fan-out node and counts succeeded, failed and cancelled branches', () => {
    let stdout = '';
    const renderer = createRunRenderer({ stdout: (t) => (stdout += t), stderr: () => {} }, { mode: 'normal', live: false });
    const events: RunEvent[] = [
      { type: 'parallel.started', nodeId: 'fan', branchCount: 4, joinPolicy: 'first_success', maxParallel: 3, at },
      { type: 'parallel.branch_started', nodeId: 'fan', branch: 'a', index: 0, at },
      { type: 'parallel.branch_started', nodeId: 'fan', branch: 'b', index: 1, at },
      { type: 'parallel.branch_started', nodeId: 'fan', branch: 'c', index: 2, at },
      { type: 'stage.failed', nodeId: 'b', index: 0, failureReason: 'no', willRetry: false, durationMs: 3, at },
      { type: 'parallel.branch_completed', nodeId: 'fan', branch: 'b', index: 1, status: 'fail', durationMs: 3, at },
      { type: 'stage.completed', nodeId: 'a', index: 0, status: 'success', durationMs: 5, at },
      { type: 'parallel.branch_completed', nodeId: 'fan', branch: 'a', index: 0, status: 'success', durationMs: 5, at },
      { type: 'parallel.completed', nodeId: 'fan', durationMs: 9, successCount: 1, failureCount: 1, at },
      { type: 'stage.completed', nodeId: 'fan', index: 1, status: 'success', durationMs: 9, at },
    ];
    for (const e of events) renderer.onEvent(e);
    expect(stdout.split('\n')).toEqual([
      '  ⑂ fan: 4 branches (first_success, 3 at a time)',
      `      ✗ ${'b'.padEnd(24)}     3ms  failed: no`,
      `      ✓ ${'a'.padEnd(24)}     5ms`,
      '    1 of 4 branches succeeded, 1 failed, 2 cancelled (c, and those not started)',
      `  ✓ ${'fan'.padEnd(24)}     9ms`,
      '',
    ]);
  });
});

describe('run renderer: streamed replies of a phased node', () => {
  it('passes each piece on with its phase, and ends the line of what streamed when the stage ends', () => {
    const calls: string[] = [];
    const replies = { streamReply: (stage: string, turn: number, text: string, phase?: string) => calls.push(`${stage} ${turn} ${phase ?? '-'} ${text}`), endReply: (stage: string) => calls.push(`end ${stage}`) };
    const renderer = createRunRenderer({ stdout: () => {}, stderr: () => {} }, { mode: 'normal', live: false, replies });
    renderer.onEvent({ type: 'llm.delta', nodeId: 'dream', text: 'Tone?', turn: 1, phase: 'discuss', at });
    renderer.onEvent({ type: 'llm.delta', nodeId: 'dream', text: 'Brief.', turn: 1, phase: 'summarize', at });
    renderer.onEvent({ type: 'llm.delta', nodeId: 'plain', text: 'No turn: not shown.', at });
    renderer.onEvent({ type: 'stage.completed', nodeId: 'dream', index: 1, status: 'success', durationMs: 5, at });
    expect(calls).toEqual(['dream 1 discuss Tone?', 'dream 1 summarize Brief.', 'end dream']);
  });
});
