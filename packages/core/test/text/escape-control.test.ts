import { describe, expect, it } from 'vitest';
import { escapeControl } from '../../src/loader.js';

describe('escapeControl', () => {
  it('escapes terminal control sequences, keeping newlines and tabs unless asked', () => {
    expect(escapeControl('a\u001b[31mb\rc\u0007d\u202ee\tf\ng')).toBe('a\\e[31mb\\rc\\x07d\\u202ee\tf\ng');
    expect(escapeControl('a\tb\nc', { keepNewlines: false })).toBe('a\\tb\\nc');
  });
});
