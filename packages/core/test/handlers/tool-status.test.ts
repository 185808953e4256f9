import { describe, expect, it } from 'vitest';
import { AUTO_STATUS_NOTES, parseStatusFile } from '../../src/engine/outcome.js';
import { toolOutcomeFromStatusFile, toolOutputText, type ToolExit } from '../../src/handlers/tool-status.js';

const exited = (extra: Partial<ToolExit> = {}): ToolExit => ({ command: 'make check', code: 0, output: 'out', noteSuffix: '', ...extra });

describe('parseStatusFile (spec Appendix C)', () => {
  it('reads every field of a valid file into an outcome', () => {
    const text = JSON.stringify({
      outcome: 'partial_success',
      preferred_label: 'Ship',
      suggested_next_ids: ['deploy', 'review'],
      context_updates: { 'build.version': '1.2.3', nested: { a: [1, true, null] } },
      notes: 'two flaky tests',
      failure_reason: 'flaky',
    });
    expect(parseStatusFile(text)).toEqual({
      ok: true,
      outcome: {
        status: 'partial_success',
        preferredLabel: 'Ship',
        suggestedNextIds: ['deploy', 'review'],
        contextUpdates: { 'build.version': '1.2.3', nested: { a: [1, true, null] } },
        notes: 'two flaky tests',
        failureReason: 'flaky',
      },
    });
  });

  it('needs only outcome, ignores unknown fields and a byte-order mark', () => {
    expect(parseStatusFile('\uFEFF{"outcome":"retry","by":"my-script"}')).toEqual({ ok: true, outcome: { status: 'retry' } });
  });

  it('names the field and the zod message of an invalid file', () => {
    const bad = parseStatusFile('{"outcome":"great"}');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.failureReason).toMatch(/^status\.json is invalid: outcome: Invalid option: expected one of "success"\|/);
    const missing = parseStatusFile('{"notes":"forgot the outcome"}');
    expect(!missing.ok && missing.failureReason).toMatch(/^status\.json is invalid: outcome: /);
    const wrongTypes = parseStatusFile('{"outcome":"success","suggested_next_ids":"deploy","preferred_label":3}');
    expect(!wrongTypes.ok && wrongTypes.failureReason).toMatch(/^status\.json is invalid: (preferred_label|suggested_next_ids): .+; (preferred_label|suggested_next_ids): /);
    const array = parseStatusFile('[1]');
    expect(!array.ok && array.failureReason).toMatch(/^status\.json is invalid: Invalid input: expected object/);
  });

  it('says how the JSON is broken', () => {
    const broken = parseStatusFile('{"outcome": "succ');
    expect(!broken.ok && broken.failureReason).toMatch(/^status\.json is not valid JSON: \S/);
    const empty = parseStatusFile('');
    expect(!empty.ok && empty.failureReason).toMatch(/^status\.json is not valid JSON: /);
  });

  it('has the auto-status notes of Appendix C', () => {
    expect(AUTO_STATUS_NOTES).toBe('auto-status: handler completed without writing status');
  });
});

describe('toolOutcomeFromStatusFile', () => {
  it('takes the outcome from the file and keeps tool.output under the file\'s context updates', () => {
    const file = parseStatusFile(JSON.stringify({ outcome: 'success', preferred_label: 'Ship', context_updates: { k: 'v' } }));
    expect(toolOutcomeFromStatusFile(file, exited())).toEqual({
      status: 'success',
      preferredLabel: 'Ship',
      contextUpdates: { 'tool.output': 'out', k: 'v' },
      notes: 'Tool completed: make check (outcome from status.json)',
    });
    const own = parseStatusFile(JSON.stringify({ outcome: 'success', context_updates: { 'tool.output': 'mine' }, notes: 'checked' }));
    expect(toolOutcomeFromStatusFile(own, exited({ noteSuffix: ' (stdout truncated)' }))).toMatchObject({
      contextUpdates: { 'tool.output': 'mine' },
      notes: 'checked (stdout truncated)',
    });
  });

  it('lets the file win over a non-zero exit, and says so in the notes', () => {
    const file = parseStatusFile('{"outcome":"success","notes":"lint warnings only"}');
    const outcome = toolOutcomeFromStatusFile(file, exited({ code: 1, exitFailure: 'tool_command failed (exit code 1)' }));
    expect(outcome.status).toBe('success');
    expect(outcome.failureReason).toBeUndefined();
    expect(outcome.notes).toBe('lint warnings only [exit code 1; the outcome is the one in status.json]');
  });

  it('gives a FAIL or RETRY without a failure_reason one: the exit failure, else what the file said', () => {
    const failed = parseStatusFile('{"outcome":"fail"}');
    expect(toolOutcomeFromStatusFile(failed, exited({ code: 2, exitFailure: 'tool_command failed (exit code 2): boom' })).failureReason).toBe('tool_command failed (exit code 2): boom');
    expect(toolOutcomeFromStatusFile(parseStatusFile('{"outcome":"retry","notes":"db not up yet"}'), exited()).failureReason).toBe('tool_command reported retry in status.json: db not up yet');
    expect(toolOutcomeFromStatusFile(parseStatusFile('{"outcome":"fail","failure_reason":"3 tests failed"}'), exited({ code: 1, exitFailure: 'x' })).failureReason).toBe('3 tests failed');
  });

  it('fails on an invalid file, naming the non-zero exit too', () => {
    const invalid = parseStatusFile('{"outcome":"great"}');
    const outcome = toolOutcomeFromStatusFile(invalid, exited());
    expect(outcome.status).toBe('fail');
    expect(outcome.failureReason).toMatch(/^status\.json is invalid: outcome: /);
    expect(outcome.contextUpdates).toBeUndefined();
    expect(toolOutcomeFromStatusFile(invalid, exited({ code: 4, exitFailure: 'tool_command failed (exit code 4)' })).failureReason).toMatch(/^status\.json is invalid: .*; tool_command failed \(exit code 4\)$/);
  });
});

describe('toolOutputText', () => {
  it('removes every trailing newline, as $(...) does, and nothing else', () => {
    expect(toolOutputText('present\n')).toBe('present');
    expect(toolOutputText('a\nb\n\n\n')).toBe('a\nb');
    expect(toolOutputText('\n\n')).toBe('');
    expect(toolOutputText('')).toBe('');
    expect(toolOutputText('spaces  ')).toBe('spaces  ');
    expect(toolOutputText('tab\t\n')).toBe('tab\t');
    expect(toolOutputText('crlf\r\n')).toBe('crlf\r');
    expect(toolOutputText('\nlead')).toBe('\nlead');
  });
});
