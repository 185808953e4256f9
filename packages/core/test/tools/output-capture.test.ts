import { describe, expect, it } from 'vitest';
import { HeadCapture, TailCapture } from '../../src/handlers/output-capture.js';
import { truncateUtf8, utf8Prefix, utf8Suffix } from '../../src/handlers/utf8-bounds.js';

describe('UTF-8 bounds', () => {
  it('cuts a prefix on a character boundary', () => {
    const bytes = Buffer.from('aé€😀', 'utf8'); // 1 + 2 + 3 + 4 bytes
    expect(utf8Prefix(bytes, 10).toString()).toBe('aé€😀');
    expect(utf8Prefix(bytes, 9).toString()).toBe('aé€');
    expect(utf8Prefix(bytes, 6).toString()).toBe('aé€');
    expect(utf8Prefix(bytes, 5).toString()).toBe('aé');
    expect(utf8Prefix(bytes, 2).toString()).toBe('a');
    expect(utf8Prefix(bytes, 0).length).toBe(0);
  });

  it('leaves bytes that are not UTF-8 as they are', () => {
    const bytes = Buffer.from([0x41, 0xff, 0xfe, 0x80, 0x80, 0x80, 0x80]);
    expect(utf8Prefix(bytes, 7)).toEqual(bytes);
  });

  it('drops the continuation bytes a suffix starts with', () => {
    const bytes = Buffer.from('€x', 'utf8');
    expect(utf8Suffix(bytes.subarray(1)).toString()).toBe('x');
    expect(utf8Suffix(bytes).toString()).toBe('€x');
  });

  it('truncates text to a number of UTF-8 bytes', () => {
    expect(truncateUtf8('hello', 5)).toBe('hello');
    expect(truncateUtf8('hello', 3)).toBe('hel');
    expect(truncateUtf8('éééé', 5)).toBe('éé');
    expect(truncateUtf8('a😀b', 4)).toBe('a');
    expect(truncateUtf8('😀'.repeat(10), 9)).toBe('😀😀');
    const long = 'ü'.repeat(100_000);
    expect(Buffer.byteLength(truncateUtf8(long, 32 * 1024))).toBe(32 * 1024);
  });
});

describe('HeadCapture', () => {
  it('keeps the first bytes and counts all of them', () => {
    const head = new HeadCapture(5);
    head.add(Buffer.from('abc'));
    head.add(Buffer.from('defgh'));
    head.add(Buffer.from('ijk'));
    expect(head.total).toBe(11);
    expect(head.truncated).toBe(true);
    expect(head.text()).toBe('abcde');
  });

  it('does not split a character at the limit', () => {
    const head = new HeadCapture(4);
    head.add(Buffer.from('ab€', 'utf8'));
    expect(head.text()).toBe('ab');
  });

  it('keeps the text within the limit when bytes that are not UTF-8 grow into U+FFFD', () => {
    const head = new HeadCapture(10);
    head.add(Buffer.alloc(10, 0xff));
    expect(head.truncated).toBe(true);
    expect(head.text()).toBe('\ufffd'.repeat(3));
  });

  it('is not truncated at exactly the limit', () => {
    const head = new HeadCapture(3);
    head.add(Buffer.from('abc'));
    expect(head.truncated).toBe(false);
    expect(head.text()).toBe('abc');
  });
});

describe('TailCapture', () => {
  it('keeps the last bytes across many chunks', () => {
    const tail = new TailCapture(5);
    for (const part of ['ab', 'cde', 'f', 'ghij', 'k']) tail.add(Buffer.from(part));
    expect(tail.total).toBe(11);
    expect(tail.text()).toBe('ghijk');
  });

  it('keeps everything while under the limit', () => {
    const tail = new TailCapture(10);
    tail.add(Buffer.from('abc'));
    tail.add(Buffer.from('de'));
    expect(tail.text()).toBe('abcde');
  });

  it('takes the end of a chunk longer than the limit', () => {
    const tail = new TailCapture(3);
    tail.add(Buffer.from('x'));
    tail.add(Buffer.from('0123456789'));
    expect(tail.text()).toBe('789');
  });

  it('starts on a character boundary', () => {
    const tail = new TailCapture(4);
    tail.add(Buffer.from('x€ab', 'utf8')); // the tail is the last 2 bytes of '€' + 'ab'
    expect(tail.text()).toBe('ab');
  });
});
