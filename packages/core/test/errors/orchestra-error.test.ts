import { beforeAll, describe, expect, it } from 'vitest';
import { CheckpointError, OrchestraError, ValidationError, isOrchestraError, validateOrRaise, type Graph } from '../../src/index.js';
import { importSecondCopy } from './second-copy.js';

describe('isOrchestraError', () => {
  it('recognises an OrchestraError and its subclasses, and checks the code when one is given', () => {
    const error = new CheckpointError('corrupt');
    expect(isOrchestraError(error)).toBe(true);
    expect(isOrchestraError(error, 'ORCH_CHECKPOINT')).toBe(true);
    expect(isOrchestraError(error, 'ORCH_READ')).toBe(false);
    expect(isOrchestraError(new OrchestraError('ORCH_X', 'x'), 'ORCH_X')).toBe(true);
  });

  it('refuses look-alikes: an Error with an ORCH_ code, plain objects, primitives', () => {
    expect(isOrchestraError(Object.assign(new Error('x'), { code: 'ORCH_READ' }))).toBe(false);
    expect(isOrchestraError({ name: 'OrchestraError', code: 'ORCH_READ', message: 'x' })).toBe(false);
    expect(isOrchestraError({ [Symbol.for('orchestra.error')]: true })).toBe(false); // a brand but no code
    for (const value of [undefined, null, 'ORCH_READ', 42]) expect(isOrchestraError(value)).toBe(false);
  });

  it('keeps the brand out of sight: not an own or enumerable property, not in JSON', () => {
    const error = new OrchestraError('ORCH_X', 'x');
    expect(Object.getOwnPropertySymbols(error)).toEqual([]);
    expect(JSON.parse(JSON.stringify(error))).toEqual({ name: 'OrchestraError', code: 'ORCH_X' });
  });
});

describe('instanceof', () => {
  it('instanceof a subclass stays the prototype check: another orchestra error is not a ValidationError', () => {
    expect(new CheckpointError('x')).toBeInstanceOf(OrchestraError);
    expect(new CheckpointError('x')).not.toBeInstanceOf(ValidationError);
    expect(new OrchestraError('ORCH_VALIDATION', 'x')).not.toBeInstanceOf(ValidationError);
    expect(Object.assign(new Error('x'), { code: 'ORCH_READ' })).not.toBeInstanceOf(OrchestraError);
  });
});

describe('two copies of @orchestra/core (a bundle and the sources) agree', () => {
  let copy: typeof import('../../src/index.js');
  beforeAll(async () => {
    copy = await importSecondCopy();
  }, 60_000);

  /** A graph with no start node: validateOrRaise throws. */
  const invalid = { name: 'G', attributes: {}, nodes: new Map(), edges: [] } as unknown as Graph;

  it('is a separate copy: its classes are not these', () => {
    expect(copy.OrchestraError).not.toBe(OrchestraError);
    expect(copy.ValidationError).not.toBe(ValidationError);
  });

  it("recognises the other copy's errors, with isOrchestraError and instanceof OrchestraError", () => {
    const theirs = (() => {
      try {
        copy.validateOrRaise(invalid);
      } catch (error) {
        return error;
      }
    })();
    expect(isOrchestraError(theirs)).toBe(true);
    expect(isOrchestraError(theirs, 'ORCH_VALIDATION')).toBe(true);
    expect(isOrchestraError(theirs, 'ORCH_READ')).toBe(false);
    expect(theirs).toBeInstanceOf(OrchestraError);
    expect(theirs).toBeInstanceOf(copy.ValidationError);
    expect(theirs).not.toBeInstanceOf(ValidationError); // a subclass: prototype check, this copy only
  });

  it('is recognised by the other copy the same way', () => {
    const ours = (() => {
      try {
        validateOrRaise(invalid);
      } catch (error) {
        return error;
      }
    })();
    expect(copy.isOrchestraError(ours, 'ORCH_VALIDATION')).toBe(true);
    expect(ours).toBeInstanceOf(copy.OrchestraError);
    expect(copy.isOrchestraError(new Error('plain'))).toBe(false);
    expect(new Error('plain')).not.toBeInstanceOf(copy.OrchestraError);
  });
});
