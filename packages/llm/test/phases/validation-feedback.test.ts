import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { artifactSchemaFromJson, artifactSchemaFromZod, ArtifactSchemaError, toolErrorFeedback, validateArtifact, validationFeedback } from '../../src/phases/index.js';

/** A DREAM-like artifact schema: the creative vision of a story. */
const DREAM = artifactSchemaFromJson(
  {
    type: 'object',
    additionalProperties: false,
    required: ['genre', 'audience', 'scope'],
    properties: {
      genre: { enum: ['fantasy', 'mystery', 'science fiction'] },
      audience: { type: 'string', minLength: 1, description: "e.g. 'adult', 'young adult'" },
      themes: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
      scope: {
        type: 'object',
        additionalProperties: false,
        required: ['target_word_count'],
        properties: { target_word_count: { type: 'integer', minimum: 1000 }, chapters: { type: 'integer', minimum: 1, maximum: 40 } },
      },
    },
  },
  'dream.schema.json',
);

function feedbackFor(value: unknown) {
  const verdict = validateArtifact(value, { schema: DREAM }, {});
  if (verdict.ok || verdict.fatal) throw new Error('expected a retryable failure');
  return validationFeedback(verdict.issues, 'submit_dream');
}

describe('validation feedback (invalid, missing, unknown)', () => {
  it('is the exact document, fields in the contract order: result, issues, issue_count, action', () => {
    const feedback = feedbackFor({ genre: 'fantasy', audience: '', scope: {}, passages: 12, word_count: 5000 });
    expect(JSON.stringify(feedback, null, 2)).toBe(
      JSON.stringify(
        {
          result: 'validation_failed',
          issues: {
            invalid: [{ field: 'audience', provided: '', problem: 'empty string not allowed', requirement: "non-empty string; e.g. 'adult', 'young adult'" }],
            missing: [{ field: 'scope.target_word_count', requirement: 'integer >= 1000' }],
            unknown: ['passages', 'word_count'],
          },
          issue_count: 4,
          action: 'Call submit_dream() with corrected data. Unknown fields may be typos.',
        },
        null,
        2,
      ),
    );
  });

  it('says what each kind of value must be, with the place of nested and array fields', () => {
    const feedback = feedbackFor({ genre: 'western', audience: 'adult', themes: ['loss', 7], scope: { target_word_count: 50.5, chapters: 41 } });
    expect(feedback.issues.missing).toEqual([]);
    expect(feedback.issues.unknown).toEqual([]);
    expect(feedback.action).toBe('Call submit_dream() with corrected data.');
    const byField = Object.fromEntries(feedback.issues.invalid.map((i) => [i.field, i]));
    expect(byField.genre).toMatchObject({ provided: 'western', requirement: "one of 'fantasy', 'mystery', 'science fiction'" });
    expect(byField['themes[1]']).toMatchObject({ provided: 7, problem: 'expected string, got the number 7', requirement: 'string' });
    expect(byField['scope.target_word_count']).toMatchObject({ provided: 50.5, problem: 'expected integer, got the number 50.5', requirement: 'integer >= 1000' });
    expect(byField['scope.chapters']).toMatchObject({ provided: 41, requirement: 'integer >= 1 and <= 40' });
    expect(feedback.issue_count).toBe(feedback.issues.invalid.length);
  });

  it('reports a missing required object as missing, and cuts long provided values', () => {
    const long = 'x'.repeat(1000);
    const feedback = feedbackFor({ genre: 'fantasy', audience: 42, themes: [long, long, long, long] });
    expect(feedback.issues.missing).toEqual([{ field: 'scope', requirement: 'object with target_word_count' }]);
    const themes = feedback.issues.invalid.find((i) => i.field === 'themes');
    expect(themes).toMatchObject({ problem: 'Too big: expected array to have <=3 items', requirement: 'array of string, 1 to 3 items' });
    expect(typeof themes?.provided).toBe('string');
    expect((themes?.provided as string).length).toBeLessThanOrEqual(301);
  });

  it('accepts a valid artifact and hands back the parsed value', () => {
    const value = { genre: 'mystery', audience: 'adult', scope: { target_word_count: 80000 } };
    expect(validateArtifact(value, { schema: DREAM }, {})).toEqual({ ok: true, artifact: value });
  });

  it('has a tool_error document for arguments that are not an object', () => {
    expect(toolErrorFeedback('arguments are not valid JSON: Unexpected token', 'submit_dream')).toEqual({
      result: 'tool_error',
      issues: { invalid: [{ field: '$', provided: null, problem: 'arguments are not valid JSON: Unexpected token', requirement: 'a JSON object matching the parameters of submit_dream' }], missing: [], unknown: [] },
      issue_count: 1,
      action: 'Call submit_dream() again with a JSON object as its arguments.',
    });
  });

  it('takes a zod schema registered by name, and refuses schemas that are not of an object', () => {
    const schema = artifactSchemaFromZod(z.strictObject({ title: z.string().min(1).describe('the working title') }), 'title');
    const verdict = validateArtifact({ title: '', extra: 1 }, { schema }, {});
    expect(verdict).toMatchObject({ ok: false, fatal: false, issues: { invalid: [{ field: 'title', requirement: 'non-empty string; the working title' }], unknown: ['extra'] } });
    expect(() => artifactSchemaFromJson({ type: 'array' }, 'list.json')).toThrow(ArtifactSchemaError);
    expect(() => artifactSchemaFromJson({ type: 'array' }, 'list.json')).toThrow('list.json: the output schema must describe an object (type "object"), as a tool\'s arguments are; it has type "array"');
    expect(() => artifactSchemaFromZod(z.string(), 'text')).toThrow('zod:text: the output schema must describe an object');
  });
});
