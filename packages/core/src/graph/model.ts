import type { SourceLocation } from '../diagnostics/diagnostic.js';

/** Attribute values as written (strings, escapes decoded). Typed readers live in `values.ts`. */
export type Attributes = Readonly<Record<string, string>>;

/** Where an attribute's value came from. */
export type AttributeSource =
  /** written on the node, edge or graph itself */
  | 'explicit'
  /** inherited from a `node [...]` / `edge [...]` default block */
  | 'default'
  /** set by a transform (for example the model stylesheet) */
  | 'transform';

/** Provenance of one attribute value. */
export interface AttributeOrigin {
  source: AttributeSource;
  /** Where the value was written (for `transform`: where the rule came from, if known). */
  location?: SourceLocation;
  /** Where the value itself starts (its opening quote, for quoted values). */
  valueLocation?: SourceLocation;
}

/** A node of a pipeline graph. Treat as immutable; transforms return new objects. */
export interface GraphNode {
  readonly id: string;
  readonly attributes: Attributes;
  readonly origins: Readonly<Record<string, AttributeOrigin>>;
  /** Classes derived from the labels of the subgraphs the node was declared in. */
  readonly subgraphClasses: readonly string[];
  /** Where the node was first mentioned. */
  readonly location?: SourceLocation;
}

/** A directed edge. Chained statements (`a -> b -> c`) become one edge per pair. */
export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  readonly attributes: Attributes;
  readonly origins: Readonly<Record<string, AttributeOrigin>>;
  /** Where the edge's source appears in its statement. */
  readonly location?: SourceLocation;
}

/** A pipeline graph: orchestra's model of one `digraph`. */
export interface Graph {
  /** The digraph's identifier (`digraph Name { ... }`), or `""`. */
  readonly name: string;
  readonly attributes: Attributes;
  readonly origins: Readonly<Record<string, AttributeOrigin>>;
  /** Nodes by id, in order of first mention. */
  readonly nodes: ReadonlyMap<string, GraphNode>;
  /** Edges in declaration order. */
  readonly edges: readonly GraphEdge[];
  /** Source file, when loaded from one. */
  readonly file?: string;
  /** Where the `digraph` statement starts. */
  readonly location?: SourceLocation;
}

/** Anything carrying attributes: a graph, a node or an edge. */
export interface HasAttributes {
  readonly attributes: Attributes;
}

/** The node's classes: its `class` attribute (comma-separated) plus subgraph-derived classes. */
export function nodeClasses(node: GraphNode): string[] {
  const classes: string[] = [];
  for (const c of (node.attributes.class ?? '').split(',')) {
    const name = c.trim();
    if (name && !classes.includes(name)) classes.push(name);
  }
  for (const c of node.subgraphClasses) if (!classes.includes(c)) classes.push(c);
  return classes;
}

/** Outgoing edges of a node, in declaration order. */
export function outgoingEdges(graph: Graph, nodeId: string): GraphEdge[] {
  return graph.edges.filter((e) => e.from === nodeId);
}

/** A copy of `node` with attributes set (origin `transform` unless given). */
export function withNodeAttributes(
  node: GraphNode,
  updates: Readonly<Record<string, string>>,
  origin: AttributeOrigin = { source: 'transform' },
): GraphNode {
  const origins = { ...node.origins };
  for (const key of Object.keys(updates)) origins[key] = origin;
  return { ...node, attributes: { ...node.attributes, ...updates }, origins };
}

/** A copy of `graph` with some nodes replaced (by id); order is kept. */
export function withNodes(graph: Graph, replaced: ReadonlyMap<string, GraphNode>): Graph {
  if (replaced.size === 0) return graph;
  const nodes = new Map<string, GraphNode>();
  for (const [id, node] of graph.nodes) nodes.set(id, replaced.get(id) ?? node);
  return { ...graph, nodes };
}
