import { describe, expect, it } from 'vitest';
import { booleanAttr, durationAttr, inferValue, integerAttr, isValidValue, parseDuration, stringAttr } from '../src/loader.js';
import { graphOf } from './helpers.js';

describe('typed values (spec §2.4)', () => {
  it.each([
    ['250ms', 250],
    ['900s', 900_000],
    ['15m', 900_000],
    ['2h', 7_200_000],
    ['1d', 86_400_000],
  ])('parses the duration %s', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['15', '15x', 'm', '1.5h', '-1s', ''])('rejects %j as a duration', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it('infers the type of a value as written', () => {
    expect(inferValue('42', false)).toEqual({ type: 'integer', value: 42 });
    expect(inferValue('-1', false)).toEqual({ type: 'integer', value: -1 });
    expect(inferValue('0.5', false)).toEqual({ type: 'float', value: 0.5 });
    expect(inferValue('-3.14', false)).toEqual({ type: 'float', value: -3.14 });
    expect(inferValue('true', false)).toEqual({ type: 'boolean', value: true });
    expect(inferValue('900s', false)).toEqual({ type: 'duration', value: 900_000 });
    expect(inferValue('900s', true)).toEqual({ type: 'duration', value: 900_000 });
    expect(inferValue('42', true)).toEqual({ type: 'string', value: '42' });
    expect(inferValue('hello', false)).toEqual({ type: 'string', value: 'hello' });
  });

  it('checks values against a declared type', () => {
    expect(isValidValue('3', 'integer')).toBe(true);
    expect(isValidValue('3.5', 'integer')).toBe(false);
    expect(isValidValue('3.5', 'float')).toBe(true);
    expect(isValidValue('yes', 'boolean')).toBe(false);
    expect(isValidValue('10m', 'duration')).toBe(true);
    expect(isValidValue('anything', 'string')).toBe(true);
  });

  it('reads typed attributes from a parsed node, with fallbacks', () => {
    const g = graphOf('digraph G { a [max_retries=3, goal_gate=true, timeout="15m", label="A"] b }');
    const a = g.nodes.get('a')!;
    const b = g.nodes.get('b')!;
    expect(integerAttr(a, 'max_retries')).toBe(3);
    expect(integerAttr(b, 'max_retries')).toBeUndefined();
    expect(integerAttr(b, 'max_retries', 0)).toBe(0);
    expect(booleanAttr(a, 'goal_gate')).toBe(true);
    expect(booleanAttr(b, 'goal_gate')).toBe(false);
    expect(durationAttr(a, 'timeout')).toBe(900_000);
    expect(stringAttr(a, 'label')).toBe('A');
    expect(stringAttr(b, 'label', 'b')).toBe('b');
  });
});

describe('handler resolution', () => {
  it('resolves explicit type, then shape, then codergen, ignoring Object prototype keys', async () => {
    const { resolveHandlerType } = await import('../src/loader.js');
    const g = graphOf('digraph G { a [type="tool", shape=hexagon]; b [shape=hexagon]; c [shape=ellipse]; d [shape=constructor]; e [shape=toString]; f }');
    expect(['a', 'b', 'c', 'd', 'e', 'f'].map((id) => resolveHandlerType(g.nodes.get(id)!))).toEqual(['tool', 'wait.human', 'codergen', 'codergen', 'codergen', 'codergen']);
  });
});
