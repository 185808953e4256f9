import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isOrchestraError } from '@orchestra/core';
import { compilePattern, keywordRegex, loadRouter, parseRouterText, routeTask, RouterError } from '../../src/router/index.js';

const FILE = '/p/recipes/router.yaml';

/** The one-line message parsing `text` fails with. */
function failure(text: string, recipes?: string[]): string {
  try {
    parseRouterText(text, FILE, recipes ? { recipes } : {});
  } catch (error) {
    expect(error).toBeInstanceOf(RouterError);
    expect(isOrchestraError(error, 'ORCH_ROUTER')).toBe(true);
    const message = (error as RouterError).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('parsed without an error');
}

const lines = (...l: string[]) => `${l.join('\n')}\n`;

describe('router.yaml errors: one line, file:line:col: key.path: message', () => {
  it('a regular expression that does not compile, at its value', () => {
    expect(failure(lines('rules:', '  - recipe: a', '    keywords: [x]', "    pattern: '(draft|write'"))).toBe(`${FILE}:4:14: rules[0].pattern: invalid regular expression: Unterminated group`);
    expect(failure(lines('rules:', '  - recipe: a', '    pattern: x', '    capture:', "      - 'ok (?<n>\\d+)'", "      - '[z-a]'"))).toBe(`${FILE}:6:9: rules[0].capture[1]: invalid regular expression: Range out of order in character class`);
  });

  it('a pattern valid only with the flags the rule gives is judged with them', () => {
    expect(failure(lines('rules:', '  - recipe: a', "    pattern: '\\p{L}+'", '    flags: u', '  - recipe: b', "    pattern: '\\p{L'", '    flags: u'))).toBe(`${FILE}:6:14: rules[1].pattern: invalid regular expression: Invalid property name`);
    expect(failure(lines('rules:', '  - recipe: a', "    pattern: '(?<1st>x)'"))).toBe(`${FILE}:3:14: rules[0].pattern: invalid regular expression: Invalid capture group name`);
  });

  it('an unknown key, with the key it was probably meant to be', () => {
    expect(failure(lines('rules:', '  - recipe: a', '    keyword: [x]'))).toBe(`${FILE}:3:5: rules[0].keyword: unknown key (did you mean keywords?)`);
    expect(failure(lines('rule:', '  - recipe: a'))).toBe(`${FILE}:1:1: rule: unknown key (did you mean rules?)`);
    expect(failure(lines('rules:', '  - recipe: a', '    pattern: x', '    priority: 3'))).toMatch(/^\/p\/recipes\/router\.yaml:4:5: rules\[0\]\.priority: unknown key \(known keys: recipe, keywords, all, exclude, pattern, flags, capture, args\)$/);
  });

  it('values of the wrong kind', () => {
    expect(failure(lines('rules:', '  - recipe: a', '    keywords: consistency'))).toBe(`${FILE}:3:15: rules[0].keywords: expected a list of keywords (any one of them must appear), got "consistency"`);
    expect(failure(lines('rules:', '  - recipe: a', '    pattern: x', '    args: { n: [1] }'))).toBe(`${FILE}:4:16: rules[0].args.n: expected a value (a string, number or boolean), got a list`);
    expect(failure(lines('rules:', '  - recipe: a', '    keywords: [ok, "two  spaces"]'))).toMatch(/^\/p\/recipes\/router\.yaml:3:20: rules\[0\]\.keywords\[1\]: expected a keyword: .*, got "two  spaces"$/);
    expect(failure(lines('rules:', '  - recipe: a', '    pattern: x', '    flags: gi'))).toBe(`${FILE}:4:12: rules[0].flags: expected flags among i, m, s and u, got "gi"`);
    expect(failure(lines('rules:', '  - recipe: a', '    pattern: x', '    args: { 9lives: x }'))).toBe(`${FILE}:4:13: rules[0].args.9lives: argument names use letters, digits and _, not starting with a digit`);
    expect(failure(lines('rules:', '  - recipe: 3d', '    pattern: x'))).toBe(`${FILE}:2:13: rules[0].recipe: expected a recipe id (letters, digits, _ and -, starting with a letter), got "3d"`);
    expect(failure(lines('rules:', '  - recipe: a', '    keywords: []'))).toBe(`${FILE}:3:15: rules[0].keywords: expected at least one keyword (any one of them must appear), got an empty list`);
  });

  it('a rule with no condition, a missing recipe, no rules', () => {
    expect(failure(lines('rules:', '  - recipe: a', '    pattern: x', '  - recipe: b', '    exclude: [y]'))).toBe(`${FILE}:4:5: rules[1]: a rule needs keywords:, all: or pattern: (what a task must contain to match it)`);
    expect(failure(lines('rules:', '  - keywords: [x]'))).toBe(`${FILE}:2:5: rules[0].recipe: missing (expected a recipe id)`);
    expect(failure(lines('rules: []'))).toBe(`${FILE}:1:8: rules: a router needs at least one rule`);
    expect(failure(lines('# nothing yet'))).toBe(`${FILE}:1:1: expected a router: a mapping with rules:, got an empty file`);
  });

  it('a problem inside a rule is found before the rule is judged whole', () => {
    expect(failure(lines('rules:', '  - recipe: a', '    keyword: [x]'))).toContain(':3:5: rules[0].keyword:');
  });

  it('YAML syntax, at the place the YAML parser stopped', () => {
    expect(failure(lines('rules:', '  - recipe: a', '    pattern: x', '    pattern: y'))).toBe(`${FILE}:4:5: YAML syntax error: duplicate key (a key may appear only once in a mapping)`);
    expect(failure(lines('rules:', '  - recipe: a', "    pattern: 'unclosed"))).toBe(`${FILE}:4:1: YAML syntax error: Missing closing 'quote`);
    expect(failure(lines('rules:', '  - recipe: a', '    keywords: [x', '  - recipe: b'))).toMatch(/^\/p\/recipes\/router\.yaml:4:\d+: YAML syntax error: /);
  });

  it('a recipe that does not exist, when the recipes are given', () => {
    expect(failure(lines('rules:', '  - recipe: analytical_consistency', '    keywords: [x]', '  - recipe: analytical_consistncy', '    keywords: [y]'), ['analytical_consistency', 'analytical_prose'])).toBe(
      `${FILE}:4:13: rules[1].recipe: "analytical_consistncy" is not a recipe (the recipes are analytical_consistency, analytical_prose): did you mean "analytical_consistency"?`,
    );
  });

  it('an alias is followed to the place it points at', () => {
    const text = lines('rules:', '  - recipe: a', '    pattern: x', '    capture: &refs', "      - '(?<n>\\d+)'", '  - recipe: b', '    pattern: y', '    capture: *refs', '    flags: q');
    expect(failure(text)).toBe(`${FILE}:9:12: rules[1].flags: expected flags among i, m, s and u, got "q"`);
  });

  it('loadRouter names a file it cannot read', () => {
    const dir = join(tmpdir(), `router-${process.pid}-${Date.now()}`);
    mkdirSync(dir, { recursive: true });
    expect(() => loadRouter(join(dir, 'router.yaml'))).toThrow(`${join(dir, 'router.yaml')}:1:1: cannot read the router file: no such file`);
    expect(() => loadRouter(dir)).toThrow(`${dir}:1:1: cannot read the router file: is a directory, not a file`);
    writeFileSync(join(dir, 'router.yaml'), lines('rules:', '  - recipe: a', '    keywords: [hello]'));
    expect(routeTask('Hello there', loadRouter(join(dir, 'router.yaml')))).toEqual({ recipe_id: 'a', initial_args: {}, routable: true, rule: 0 });
  });
});

describe('rule semantics', () => {
  const router = parseRouterText(
    lines(
      'rules:',
      '  - recipe: both',
      '    all: [canon, scene]',
      '    keywords: [update, record]',
      '    exclude: [check]',
      '    args: { mode: strict, min_words: 800 }',
      '  - recipe: pattern',
      "    pattern: '(?i)^check (?<scene_path>scenes/\\S+)(?: (?<depth>deep))?'",
      '    capture:',
      "      - 'chapter (?<chapter>\\d+)'",
      "      - 'scenes/(?<scene_path>overridden)'",
      '    args: { depth: shallow }',
      '  - recipe: prefix',
      '    keywords: [contradict*, plot hole*]',
    ),
    FILE,
  );

  it('keywords: any one; all: every one; exclude: none; whole words, any case', () => {
    expect(routeTask('Update the canon from scene 2', router)).toMatchObject({ recipe_id: 'both', initial_args: { mode: 'strict', min_words: '800' } });
    expect(routeTask('Update the canon', router).routable).toBe(false);
    expect(routeTask('Update the canon from scene 2 after a check', router).routable).toBe(false);
    expect(routeTask('RECORD the CANON of SCENE 2', router).recipe_id).toBe('both');
    expect(routeTask('Update the canonical scene', router).routable).toBe(false);
  });

  it('pattern groups fill initial_args over capture groups, which fill them over args; an unmatched group is left out', () => {
    expect(routeTask('check scenes/scene-02.md in chapter 1', router)).toEqual({ recipe_id: 'pattern', initial_args: { scene_path: 'scenes/scene-02.md', chapter: '1', depth: 'shallow' }, routable: true, rule: 1 });
    expect(routeTask('Check scenes/overridden deep', router).initial_args).toEqual({ scene_path: 'scenes/overridden', depth: 'deep' });
    expect(routeTask('please check scenes/scene-02.md', router).routable).toBe(false);
  });

  it('a keyword ending in * lets its last word go on; phrases match across any white space', () => {
    expect(routeTask('Scene 2 contradicts scene 1', router).recipe_id).toBe('prefix');
    expect(routeTask('the contradiction', router).recipe_id).toBe('prefix');
    expect(routeTask('a plot\n  holes list', router).recipe_id).toBe('prefix');
    expect(routeTask('noncontradiction', router).routable).toBe(false);
    expect(keywordRegex('word count').test('the Word  Count')).toBe(true);
    expect(keywordRegex('word count').test('word counts')).toBe(false);
    expect(keywordRegex("Wren's").test("is it wren's?")).toBe(true);
  });

  it('the task is trimmed; an empty task is not routable', () => {
    expect(routeTask('   check scenes/a.md  ', router).initial_args).toMatchObject({ scene_path: 'scenes/a.md' });
    expect(routeTask('', router)).toEqual({ recipe_id: null, initial_args: {}, routable: false });
  });

  it('compilePattern reads a leading (?i) as a flag and lists the named groups', () => {
    const compiled = compilePattern('(?i)draft (?<n>\\d+)(?<x>y)?');
    expect(compiled.ok && compiled.regex.flags).toBe('i');
    expect(compiled.ok && compiled.groups).toEqual(['n', 'x']);
    expect(compilePattern('(?i)a', 'i')).toMatchObject({ ok: true });
    expect(compilePattern('a(')).toEqual({ ok: false, reason: 'invalid regular expression: Unterminated group' });
  });
});
