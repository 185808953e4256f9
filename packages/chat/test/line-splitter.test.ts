import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../src/mcp/line-splitter.js';

const push = (splitter: LineSplitter, ...chunks: string[]) => chunks.flatMap((c) => splitter.push(Buffer.from(c)));

describe('LineSplitter', () => {
  it('joins a line cut across chunks, drops \\r before the newline, and keeps a split UTF-8 character whole', () => {
    const splitter = new LineSplitter(100);
    expect(push(splitter, '{"a":', '1}\r\n{"b"', ':2}\n')).toEqual([{ line: '{"a":1}' }, { line: '{"b":2}' }]);
    const euro = Buffer.from('€\n');
    expect([...splitter.push(euro.subarray(0, 1)), ...splitter.push(euro.subarray(1))]).toEqual([{ line: '€' }]);
  });

  it('holds an unfinished line until its newline comes', () => {
    const splitter = new LineSplitter(100);
    expect(push(splitter, 'abc')).toEqual([]);
    expect(push(splitter, '\n')).toEqual([{ line: 'abc' }]);
  });

  it('reports a line over the limit once, drops the rest of it, and reads the next line as usual', () => {
    const splitter = new LineSplitter(8);
    expect(push(splitter, '12345678\n')).toEqual([{ line: '12345678' }]);
    expect(push(splitter, '123456789\nok\n')).toEqual([{ overlong: 8 }, { line: 'ok' }]);
    expect(push(splitter, '12345', '6789', 'more and more', 'x\nnext\n')).toEqual([{ overlong: 8 }, { line: 'next' }]);
  });
});
