import { instance, type Graph as VizGraph, type Viz } from '@viz-js/viz';
import type { Graph, GraphNode } from '@orchestra/core';
import { nodeShape, resolveHandlerType } from '@orchestra/core/loader';
import { edgeSides } from './edge-sides.js';
import { pictureLayout } from './layout-attributes.js';
import type { NodeState } from './node-states.js';

/** Fill colours of the node states (light, so labels stay readable). */
export const STATE_COLOURS: Readonly<Record<NodeState, string>> = {
  pending: '#ffffff',
  completed: '#d7f0dd',
  failed: '#f8d7da',
  current: '#fff1c2',
};

/** Graphviz shapes a pipeline may use (spec §2.8); any other shape is drawn as a box. */
const SHAPES = new Set(['box', 'Mdiamond', 'Msquare', 'diamond', 'hexagon', 'component', 'tripleoctagon', 'parallelogram', 'house', 'ellipse', 'oval', 'circle', 'doublecircle', 'note', 'tab', 'folder', 'cylinder']);

let viz: Promise<Viz> | undefined;

/** The Graphviz instance (WebAssembly, loaded once per process). */
function graphviz(): Promise<Viz> {
  viz ??= instance();
  return viz;
}

/**
 * Text as Graphviz shows it literally: a backslash starts an escape in a
 * label (`\N` is the node's name, `\l` ends a line), so user text gets
 * each one doubled. Line breaks stay line breaks.
 */
function literal(text: string): string {
  return text.replace(/\\/g, '\\\\');
}

/** A node's caption: its label (or id), and under it what runs there when that says more. */
function caption(node: GraphNode): string {
  const label = node.attributes.label?.trim() || node.id;
  const type = resolveHandlerType(node);
  const detail = type === 'tool' ? node.attributes.tool_command : type === 'pipeline' ? node.attributes.pipeline : undefined;
  const short = detail && detail.length > 40 ? `${detail.slice(0, 39)}…` : detail;
  return literal(short ? `${label}\n${short}` : label);
}

/**
 * The Graphviz graph of a pipeline, built from the parsed model (never from
 * the DOT text, so orchestra's own attributes never reach Graphviz): the
 * pipeline's layout attributes that pass their check (`rankdir`, `nodesep`,
 * `ranksep`, `splines`, ...: see `LAYOUT_ATTRIBUTES`), each node with its
 * shape and caption, coloured by its state when `states` is given (the
 * current node also drawn thicker), each edge with its label and
 * condition, and the edges of a loop or parallel edges drawn apart (see
 * `edgeSides`). Every node carries `id="node-<id>"` and a class naming its
 * state, for pages that restyle it live.
 */
export function pictureGraph(graph: Graph, states?: ReadonlyMap<string, NodeState>): VizGraph {
  const layout = { rankdir: 'TB', ...pictureLayout(graph).attributes };
  const sides = edgeSides(graph, layout.rankdir);
  return {
    name: graph.name,
    directed: true,
    graphAttributes: { fontname: 'Helvetica', ...(graph.attributes.label ? { label: graph.attributes.label, labelloc: 't' } : {}), ...layout },
    nodeAttributes: { fontname: 'Helvetica', fontsize: 12, style: 'filled', fillcolor: STATE_COLOURS.pending, margin: '0.15,0.06' },
    edgeAttributes: { fontname: 'Helvetica', fontsize: 10 },
    nodes: [...graph.nodes.values()].map((node) => {
      const state = states?.get(node.id) ?? 'pending';
      const shape = nodeShape(node);
      return {
        name: node.id,
        attributes: {
          label: caption(node),
          shape: SHAPES.has(shape) ? shape : 'box',
          id: `node-${node.id}`,
          class: `state-${state}`,
          fillcolor: STATE_COLOURS[state],
          ...(state === 'current' ? { penwidth: 2.5 } : {}),
          tooltip: literal(node.attributes.prompt?.slice(0, 200) || node.id),
        },
      };
    }),
    edges: graph.edges.map((edge, index) => {
      const parts = [edge.attributes.label?.trim(), edge.attributes.condition?.trim() ? `[${edge.attributes.condition.trim()}]` : undefined].filter(Boolean);
      const side = sides[index];
      return {
        tail: edge.from,
        head: edge.to,
        attributes: {
          ...(parts.length > 0 ? { label: literal(parts.join('\n')) } : {}),
          ...(edge.attributes.condition?.trim() ? { style: 'dashed' } : {}),
          ...(side ? { tailport: side, headport: side } : {}),
        },
      };
    }),
  };
}

/** An SVG picture of a pipeline (see {@link pictureGraph}), laid out by Graphviz's `dot`. */
export async function renderPipelineSvg(graph: Graph, states?: ReadonlyMap<string, NodeState>): Promise<string> {
  return (await graphviz()).renderString(pictureGraph(graph, states), { format: 'svg', engine: 'dot' });
}
