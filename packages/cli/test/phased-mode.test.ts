import { describe, expect, it } from 'vitest';
import { recordRunOptions, withRecordedOptions } from '../src/recorded-options.js';
import { phasedModeOf } from '../src/run-flags.js';

const tty = { stdin: { isTTY: true }, stdout: { isTTY: true } };
const piped = { stdin: {}, stdout: { isTTY: true } };

describe('how phased stages without agent.mode discuss (-i / -I)', () => {
  it('follows -i and -I, else is interactive exactly when stdin and stdout are terminals', () => {
    expect(phasedModeOf({ interactive: true }, piped)).toBe('interactive');
    expect(phasedModeOf({ interactive: false }, tty)).toBe('direct');
    expect(phasedModeOf({}, tty)).toBe('interactive');
    expect(phasedModeOf({}, piped)).toBe('direct');
    expect(phasedModeOf({}, { stdin: { isTTY: true }, stdout: {} })).toBe('direct');
  });

  it('is recorded, and a resume keeps it unless -i or -I is given (naming only an interactive one)', () => {
    expect(recordRunOptions({ interactive: true })).toMatchObject({ phased_mode: 'interactive' });
    expect(withRecordedOptions({ phased_mode: 'interactive' }, {})).toEqual({ flags: { interactive: true }, restored: ['--interactive'] });
    expect(withRecordedOptions({ phased_mode: 'direct' }, {})).toEqual({ flags: { interactive: false }, restored: [] });
    expect(withRecordedOptions({ phased_mode: 'interactive' }, { interactive: false })).toEqual({ flags: { interactive: false }, restored: [] });
    expect(withRecordedOptions({}, {})).toEqual({ flags: {}, restored: [] });
  });
});
