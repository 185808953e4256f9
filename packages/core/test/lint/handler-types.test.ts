import { describe, expect, it } from 'vitest';
import { createDefaultRegistry, simulationBackend, validate } from '../../src/index.js';
import { BUILT_IN_HANDLER_TYPES } from '../../src/loader.js';
import { withSubPipelines } from '../../src/handlers/default-registry.js';
import { byRule, graphOf, pipeline } from '../helpers.js';

describe('the handler types validation knows are those a run registers', () => {
  it('a run without a registry of its own (as `orchestra run`) registers exactly the built-in types validation knows', () => {
    const registered = withSubPipelines(createDefaultRegistry({ backend: simulationBackend })).types();
    expect([...registered].sort()).toEqual([...BUILT_IN_HANDLER_TYPES].sort());
  });

  it('accepts a node of every built-in type, and refuses any other type without registering it', () => {
    const typed = BUILT_IN_HANDLER_TYPES.filter((t) => t !== 'start' && t !== 'exit').map((t, i) => `  n${i} [type="${t}"]\n  start -> n${i}`);
    expect(byRule(validate(graphOf(pipeline(typed.join('\n')))), 'type_known')).toEqual([]);
    const custom = graphOf(pipeline('  a [type="deploy", prompt="x"]\n  start -> a -> exit'));
    expect(byRule(validate(custom), 'type_known').map((d) => d.severity)).toEqual(['error']);
    expect(validate(custom, { knownHandlerTypes: ['deploy'] })).toEqual([]);
  });

  it('leaves the start and exit nodes alone: a run gives them the start and exit handlers whatever their type', () => {
    const g = graphOf('digraph G { start [type="custom"]; exit [shape=Msquare]; start -> exit }');
    expect(byRule(validate(g), 'type_known')).toEqual([]);
  });
});
