import { describe, expect, it } from 'vitest';
import { validate } from '../../src/index.js';
import { byRule, graphOf, pipeline } from '../helpers.js';

describe('human_gate_condition', () => {
  it('warns about a condition on an edge leaving a human gate, at the condition, saying what happens', () => {
    const src = pipeline(
      '  review [shape=hexagon, label="Ship it?"]\n  fix [prompt="fix"]\n  start -> review\n  review -> exit [label="[Y] Yes", condition="outcome=success"]\n  review -> fix [label="[N] No"]\n  fix -> review',
    );
    const d = byRule(validate(graphOf(src)), 'human_gate_condition');
    expect(d).toEqual([
      {
        rule: 'human_gate_condition',
        severity: 'warning',
        message:
          'edge review -> exit has condition "outcome=success", but human gate review routes by the answer: conditions are checked first, ' +
          'so while it holds this edge is taken whatever is answered, and while it does not, choosing "Yes" follows an unconditional edge instead (or none)',
        fix: 'remove the condition: the gate takes the edge whose label is chosen (test context.human.gate.selected on a later edge; route a gate left unanswered with retry_target)',
        edge: { from: 'review', to: 'exit' },
        location: { file: 'test.dot', line: 7, column: 36 },
      },
    ]);
  });

  it('covers gates typed wait.human, and leaves other nodes and empty conditions alone', () => {
    const src = pipeline(
      '  gate [type="wait.human", label="Go?"]\n  check [shape=diamond]\n  start -> gate\n  gate -> check [condition="context.x=1"]\n  gate -> exit [condition=""]\n  check -> exit [condition="outcome=success"]\n  check -> gate',
    );
    const d = byRule(validate(graphOf(src)), 'human_gate_condition');
    expect(d.map((x) => x.edge)).toEqual([{ from: 'gate', to: 'check' }]);
    expect(d[0]?.message).toContain('choosing "check"');
  });
});
