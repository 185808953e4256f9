import { describe, expect, it } from 'vitest';
import { artifactSchemaFromJson, parseSemanticChecks, runSemanticChecks, validateArtifact, type SemanticCheck } from '../../src/phases/index.js';

/** The context a beats phase sees: the thread design's artifact and the brainstorm. */
const CONTEXT = {
  'thread_design.output': { threads: [{ thread_id: 't_heist' }, { thread_id: 't_betrayal' }], tensions: [{ tension_id: 'x_trust' }] },
  brainstorm: { entities: [{ id: 'e_mara' }, { id: 'e_vault' }, { id: 'e_guard' }] },
};

function checks(...declared: object[]): SemanticCheck[] {
  const parsed = parseSemanticChecks({ checks: declared }, 'beats.checks.json');
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
}

const beat = (id: string, threads: string[], location = 'vault') => ({ beat_id: id, threads, location });

describe('declared semantic checks', () => {
  it('references: every value must be among the values of a context path; the feedback lists the valid ones', () => {
    const artifact = { initial_beats: [beat('b1', ['t_heist']), beat('b2', ['t_heist', 't_phantom'])] };
    const found = runSemanticChecks(checks({ references: 'initial_beats[].threads[]', among: 'thread_design.output.threads[].thread_id' }), artifact, CONTEXT);
    expect(found.errors).toEqual([]);
    expect(found.fatal.invalid).toEqual([]);
    expect(found.retry.invalid).toEqual([
      {
        field: 'initial_beats[1].threads[1]',
        provided: 't_phantom',
        problem: "'t_phantom' is not among thread_design.output.threads[].thread_id",
        requirement: "one of 't_heist', 't_betrayal'",
      },
    ]);
  });

  it('severity fatal puts the finding aside: the node stops, no retry', () => {
    const schema = artifactSchemaFromJson({ type: 'object', properties: { initial_beats: { type: 'array' } } }, 'beats.schema.json');
    const rules = { schema, checks: checks({ references: 'initial_beats[].threads[]', among: 'thread_design.output.threads[].thread_id', severity: 'fatal' }) };
    const verdict = validateArtifact({ initial_beats: [beat('b1', ['t_phantom'])] }, rules, CONTEXT);
    expect(verdict).toMatchObject({ ok: false, fatal: true, errors: [], issues: { invalid: [{ field: 'initial_beats[0].threads[0]', provided: 't_phantom' }] } });
    expect(validateArtifact({ initial_beats: [beat('b1', ['t_heist'])] }, rules, CONTEXT).ok).toBe(true);
  });

  it('covers: every value of a context path needs an entry in the artifact', () => {
    const artifact = { decisions: [{ entity_id: 'e_mara', keep: true }, { entity_id: 'e_guard', keep: false }] };
    const found = runSemanticChecks(checks({ covers: 'brainstorm.entities[].id', with: 'decisions[].entity_id' }), artifact, CONTEXT);
    expect(found.retry.missing).toEqual([{ field: 'decisions[].entity_id', requirement: "an entry for 'e_vault' (every value of brainstorm.entities[].id needs one)" }]);
  });

  it('unique and disjoint: duplicates name the first place; a clash names where the other value is', () => {
    const artifact = { threads: [{ thread_id: 't_a' }, { thread_id: 'x_trust' }, { thread_id: 't_a' }], tensions: [{ tension_id: 'x_trust' }] };
    const found = runSemanticChecks(checks({ unique: 'threads[].thread_id' }, { disjoint: 'threads[].thread_id', from: '$.tensions[].tension_id' }), artifact, {});
    expect(found.retry.invalid).toEqual([
      { field: 'threads[2].thread_id', provided: 't_a', problem: 'duplicate of threads[0].thread_id', requirement: 'unique values across threads[].thread_id' },
      { field: 'threads[1].thread_id', provided: 'x_trust', problem: "'x_trust' is also used at tensions[0].tension_id", requirement: 'a value not used in $.tensions[].tension_id' },
    ]);
  });

  it('count per group: items per group within bounds, groups from `over` counted even when empty, distinct values', () => {
    const artifact = { initial_beats: [beat('b1', ['t_heist'], 'vault'), beat('b2', ['t_heist'], 'vault'), beat('b3', ['t_heist', 't_heist'], 'street')] };
    const perThread = checks({ count: 'initial_beats[]', per: 'threads[]', over: 'thread_design.output.threads[].thread_id', min: 2, max: 2 });
    expect(runSemanticChecks(perThread, artifact, CONTEXT).retry.invalid).toEqual([
      { field: 'initial_beats[]', provided: 3, problem: "threads[] 't_heist' has 3 items", requirement: '2 to 2 items per threads[]' },
      { field: 'initial_beats[]', provided: 0, problem: "threads[] 't_betrayal' has 0 items", requirement: '2 to 2 items per threads[]' },
    ]);
    const locations = checks({ count: 'initial_beats[]', per: 'threads[]', distinct: 'location', min: 3 });
    expect(runSemanticChecks(locations, artifact, CONTEXT).retry.invalid).toEqual([
      { field: 'initial_beats[]', provided: 2, problem: "threads[] 't_heist' has 2 distinct location values", requirement: 'at least 3 distinct location values per threads[]' },
    ]);
  });

  it('reads context keys that hold dots, longest first, and a key whose value is itself the list', () => {
    const context = { 'a.b': { ids: ['x'] }, a: { b: { ids: ['y'] } }, 'list.ids': ['z'] };
    const ref = (among: string) => runSemanticChecks(checks({ references: 'v[]', among }), { v: ['x', 'y', 'z'] }, context).retry.invalid.map((i) => i.provided);
    expect(ref('a.b.ids[]')).toEqual(['y', 'z']); // `a.b` wins over `a`
    expect(ref('list.ids[]')).toEqual(['x', 'y']);
  });

  it('a source naming nothing in the context is an error of the pipeline, not a finding', () => {
    const schema = artifactSchemaFromJson({ type: 'object' }, 's.json');
    const verdict = validateArtifact({ v: ['x'] }, { schema, checks: checks({ references: 'v[]', among: 'nowhere.ids[]' }) }, CONTEXT);
    expect(verdict).toEqual({ ok: false, fatal: true, issues: { invalid: [], missing: [], unknown: [] }, errors: ['checks[0].among: "nowhere.ids[]" names no value of the run\'s context (no context key is a prefix of it)'] });
  });

  it('a list of paths takes their values together: entities retained by kind, decided either way', () => {
    const context = {
      brainstorm: { characters: [{ id: 'e_mara' }, { id: 'e_parrot' }], locations: [{ id: 'e_vault' }] },
      'entity_curation.output': { retained: { characters: ['e_mara'], locations: ['e_vault'] } },
    };
    const all = ['brainstorm.characters[].id', 'brainstorm.locations[].id'];
    const retained = ['entity_curation.output.retained.characters[]', 'entity_curation.output.retained.locations[]'];
    const declared = checks(
      { references: 'beats[].entities[]', among: retained },
      { covers: all, with: ['retained.characters[]', 'cut[].entity_id'] },
      { unique: ['retained.characters[]', 'cut[].entity_id'] },
      { disjoint: 'beats[].entities[]', from: ['$.cut[].entity_id', '$.retained.characters[]'] },
    );
    const artifact = { beats: [{ entities: ['e_mara', 'e_vault', 'e_parrot'] }], retained: { characters: ['e_mara'] }, cut: [{ entity_id: 'e_mara' }] };
    const found = runSemanticChecks(declared, artifact, context);
    expect(found.errors).toEqual([]);
    expect(found.retry).toEqual({
      invalid: [
        {
          field: 'beats[0].entities[2]',
          provided: 'e_parrot',
          problem: "'e_parrot' is not among entity_curation.output.retained.characters[] | entity_curation.output.retained.locations[]",
          requirement: "one of 'e_mara', 'e_vault'",
        },
        { field: 'cut[0].entity_id', provided: 'e_mara', problem: 'duplicate of retained.characters[0]', requirement: 'unique values across retained.characters[] | cut[].entity_id' },
        { field: 'beats[0].entities[0]', provided: 'e_mara', problem: "'e_mara' is also used at cut[0].entity_id", requirement: 'a value not used in $.cut[].entity_id | $.retained.characters[]' },
      ],
      missing: [
        { field: 'retained.characters[] | cut[].entity_id', requirement: "an entry for 'e_parrot' (every value of brainstorm.characters[].id | brainstorm.locations[].id needs one)" },
        { field: 'retained.characters[] | cut[].entity_id', requirement: "an entry for 'e_vault' (every value of brainstorm.characters[].id | brainstorm.locations[].id needs one)" },
      ],
      unknown: [],
    });
    // Each path of a list must name something; the error says which one.
    expect(runSemanticChecks(checks({ references: 'v[]', among: ['brainstorm.characters[].id', 'nowhere[]'] }), { v: [] }, context).errors).toEqual([
      'checks[0].among[1]: "nowhere[]" names no value of the run\'s context (no context key is a prefix of it)',
    ]);
    expect(parseSemanticChecks({ checks: [{ unique: ['a[]', 'b[x]'] }] }, 'c.json')).toBe('c.json: checks[0].unique[1]: path "b[x]" has a malformed step "b[x]": write field names joined by ".", each optionally followed by "[]"');
    expect(parseSemanticChecks({ checks: [{ unique: [] }] }, 'c.json')).toMatch(/^c\.json: not a valid checks declaration at checks\.0/);
  });

  it('lists at most 100 valid values, then says how many more', () => {
    const ids = Array.from({ length: 250 }, (_, i) => `t${i}`);
    const found = runSemanticChecks(checks({ references: 'v[]', among: 'ids[]' }), { v: ['nope'] }, { ids });
    expect(found.retry.invalid[0]?.requirement).toMatch(/^one of 't0', 't1', .*'t99' … \(and 150 more\)$/);
  });

  it('refuses a malformed declaration before any model call, saying where', () => {
    expect(parseSemanticChecks({ checks: [{ references: 'a[]' }] }, 'c.json')).toMatch(/^c\.json: not a valid checks declaration at checks\.0: each check is one of/);
    expect(parseSemanticChecks({ checks: [{ unique: 'a[].b[x]' }] }, 'c.json')).toBe('c.json: checks[0].unique: path "a[].b[x]" has a malformed step "b[x]": write field names joined by ".", each optionally followed by "[]"');
    expect(parseSemanticChecks({ checks: [{ count: 'a[]', per: 'b' }] }, 'c.json')).toBe('c.json: checks[0] counts without a min or a max');
    expect(parseSemanticChecks({ checks: [{ unique: 'a[]', severity: 'sometimes' }] }, 'c.json')).toMatch(/^c\.json: not a valid checks declaration at checks\.0/);
  });

  it('runs schema validation first: semantic checks never read an artifact of the wrong shape', () => {
    const schema = artifactSchemaFromJson({ type: 'object', required: ['v'], properties: { v: { type: 'array', items: { type: 'string' } } } }, 's.json');
    const verdict = validateArtifact({ v: 'not a list' }, { schema, checks: checks({ references: 'v[]', among: 'nowhere[]' }) }, {});
    expect(verdict).toMatchObject({ ok: false, fatal: false, issues: { invalid: [{ field: 'v' }] } });
  });

  it('code validators add findings of the same shape, fatal or not', () => {
    const schema = artifactSchemaFromJson({ type: 'object' }, 's.json');
    const verdict = validateArtifact({ title: 'x' }, { schema, validators: [() => ({ invalid: [{ field: 'title', provided: 'x', problem: 'too short', requirement: 'a title of 3 letters or more' }] })] }, {});
    expect(verdict).toMatchObject({ ok: false, fatal: false, issues: { invalid: [{ field: 'title', problem: 'too short' }] } });
    const fatal = validateArtifact({ title: 'x' }, { schema, validators: [() => ({ fatal: true, missing: [{ field: 'summary', requirement: 'a summary' }] })] }, {});
    expect(fatal).toMatchObject({ ok: false, fatal: true, issues: { missing: [{ field: 'summary' }] } });
  });
});
