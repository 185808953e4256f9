import { describe, expect, it } from 'vitest';
import { evaluateCondition, parseCondition, parseConditionOrThrow, type ConditionScope } from '../src/loader.js';

function scope(outcome: string, context: Record<string, unknown> = {}, preferredLabel = ''): ConditionScope {
  return { outcome, preferredLabel, get: (key) => context[key] };
}

function holds(condition: string, s: ConditionScope): boolean {
  return evaluateCondition(parseConditionOrThrow(condition), s);
}

describe('condition parsing (spec §10.2)', () => {
  it('parses clauses joined by &&', () => {
    const r = parseCondition('outcome=success && context.tests_passed!=false && context.ready');
    expect(r).toEqual({
      ok: true,
      condition: {
        source: 'outcome=success && context.tests_passed!=false && context.ready',
        clauses: [
          { key: 'outcome', op: '=', value: 'success', index: 0 },
          { key: 'context.tests_passed', op: '!=', value: 'false', index: 19 },
          { key: 'context.ready', op: 'truthy', index: 50 },
        ],
      },
    });
  });

  it('parses quoted literals with escapes, including && and = inside quotes', () => {
    const r = parseConditionOrThrow('context.msg="a && b = \\"c\\"" && preferred_label="Fix it"');
    expect(r.clauses.map((c) => (c.op === 'truthy' ? c.key : [c.key, c.op, c.value]))).toEqual([
      ['context.msg', '=', 'a && b = "c"'],
      ['preferred_label', '=', 'Fix it'],
    ]);
  });

  it('keeps unknown escapes in quoted literals as written, like DOT strings', () => {
    const clause = parseConditionOrThrow('context.re="a\\d"').clauses[0];
    expect(clause).toMatchObject({ value: 'a\\d' });
  });

  it('accepts integers and bare literals with . : -', () => {
    expect(parseConditionOrThrow('context.count=3 && context.v=1.2.3-rc:x').clauses).toHaveLength(2);
  });

  it('treats an empty condition as no clauses', () => {
    expect(parseConditionOrThrow('   ').clauses).toEqual([]);
  });

  it.each([
    ['outcome==success', '"==" is not an operator', 7],
    ['outcome=success || outcome=fail', '"||" is not supported', 16],
    ['outcome=success &&', 'empty clause', 18],
    ['&& outcome=success', 'empty clause', 0],
    ['outcome=success && && x', 'empty clause', 19],
    ['outcome=', 'missing value', 8],
    ['context.n > 3', 'operator ">" is not supported', 10],
    ['!context.flag', 'negation', 0],
    ['outcome=success extra', 'unexpected', 16],
    ['context.msg="open', 'unterminated', 12],
    ['context.path=/tmp/x', 'missing value', 13],
    ['context.x=a/b', 'unexpected "/" in a value', 11],
    ['3=outcome', 'expected a key', 0],
    ['outcome =~ succ', 'operator "=~" is not supported', 8],
  ])('rejects %j: %s at index %i', (source, message, index) => {
    const r = parseCondition(source);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.message).toContain(message);
      expect(r.error.index).toBe(index);
    }
  });
});

describe('condition evaluation (spec §11.9)', () => {
  it('= compares strings exactly and case-sensitively', () => {
    expect(holds('outcome=success', scope('success'))).toBe(true);
    expect(holds('outcome=success', scope('fail'))).toBe(false);
    expect(holds('outcome=Success', scope('success'))).toBe(false);
  });

  it('!= is the negation of =', () => {
    expect(holds('outcome!=success', scope('fail'))).toBe(true);
    expect(holds('outcome!=success', scope('success'))).toBe(false);
  });

  it('&& requires every clause', () => {
    const s = scope('success', { tests_passed: 'true' });
    expect(holds('outcome=success && context.tests_passed=true', s)).toBe(true);
    expect(holds('outcome=success && context.tests_passed=false', s)).toBe(false);
    expect(holds('outcome=fail && context.tests_passed=true', s)).toBe(false);
  });

  it('resolves outcome and preferred_label from the outcome', () => {
    expect(holds('preferred_label=Fix', scope('success', {}, 'Fix'))).toBe(true);
    expect(holds('preferred_label=Fix', scope('success', {}, 'Approve'))).toBe(false);
  });

  it('resolves context.* from the context, trying the key without the prefix too', () => {
    expect(holds('context.loop_state=exhausted', scope('success', { 'context.loop_state': 'exhausted' }))).toBe(true);
    expect(holds('context.loop_state=exhausted', scope('success', { loop_state: 'exhausted' }))).toBe(true);
    expect(holds('context.count=3', scope('success', { count: 3 }))).toBe(true);
    expect(holds('context.ok=true', scope('success', { ok: true }))).toBe(true);
    expect(holds('human.gate.selected=A', scope('success', { 'human.gate.selected': 'A' }))).toBe(true);
  });

  it('compares missing keys as the empty string', () => {
    expect(holds('context.missing=x', scope('success'))).toBe(false);
    expect(holds('context.missing!=x', scope('success'))).toBe(true);
    expect(holds('context.missing=""', scope('success'))).toBe(true);
  });

  it('treats a bare key as a truthiness test: "", false and 0 are false', () => {
    expect(holds('context.flag', scope('success', { flag: 'yes' }))).toBe(true);
    expect(holds('context.flag', scope('success', { flag: true }))).toBe(true);
    for (const v of ['', false, 'false', 0, undefined]) expect(holds('context.flag', scope('success', { flag: v }))).toBe(false);
  });

  it('treats an empty condition as always true', () => {
    expect(holds('', scope('fail'))).toBe(true);
  });
});
