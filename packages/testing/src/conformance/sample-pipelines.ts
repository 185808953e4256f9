import { createDefaultRegistry, loadPipeline, simulationBackend, type Graph, type Handler, type HandlerRegistry, type Interviewer } from '@orchestra/core';

/**
 * A chain of seven nodes with a conditional branch that depends on context
 * written earlier: `tally` nodes add one to `tally.total` (so a resumed run
 * must have the context restored to take the same branch), `report` is an
 * LLM stage run by the simulation backend.
 */
export const TALLY_PIPELINE = `digraph Tally {
  graph [goal="count the steps"]
  start [shape=Mdiamond]
  exit [shape=Msquare]
  a [type="tally"]
  b [type="tally"]
  check [shape=diamond]
  c [type="tally"]
  skipped [type="tally"]
  report [prompt="Report the tally"]
  start -> a -> b -> check
  check -> c [condition="context.tally.total=2"]
  check -> skipped [condition="context.tally.total!=2"]
  c -> report -> exit
  skipped -> exit
}
`;

/** A human gate: `[Y]` leads to `yes`, `[N]` to `no`. */
export const GATE_PIPELINE = `digraph Gate {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  gate [shape=hexagon, label="Go?"]
  yes [prompt="y"]
  no [prompt="n"]
  start -> gate
  gate -> yes [label="[Y] Yes"]
  gate -> no [label="[N] No"]
  yes -> exit
  no -> exit
}
`;

/** Adds one to `tally.total` and records the total under `tally.<node>`. */
const tally: Handler = {
  execute({ node, context }) {
    const total = Number(context.get('tally.total', 0)) + 1;
    return { status: 'success', contextUpdates: { 'tally.total': total, [`tally.${node.id}`]: total } };
  },
};

/** The built-in handlers (LLM stages simulated) plus `tally`. */
export function sampleRegistry(interviewer?: Interviewer): HandlerRegistry {
  return createDefaultRegistry({ backend: simulationBackend, ...(interviewer ? { interviewer } : {}) }).register('tally', tally);
}

/** Loads DOT text known to be valid. */
export function graphOf(source: string, registry: HandlerRegistry): Graph {
  const loaded = loadPipeline(source, { file: 'conformance.dot', knownHandlerTypes: registry.types() });
  if (!loaded.ok || !loaded.graph) throw new Error(`conformance pipeline does not load: ${JSON.stringify(loaded.diagnostics)}`);
  return loaded.graph;
}
