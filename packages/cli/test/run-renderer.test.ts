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
