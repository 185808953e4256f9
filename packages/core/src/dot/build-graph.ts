import type {
  AttributeASTNode,
  ClusterStatementASTNode,
  DotASTNode,
  EdgeASTNode,
  GraphASTNode,
  LiteralASTNode,
  NodeASTNode,
  SubgraphASTNode,
} from 'ts-graphviz/ast';
import type { Diagnostic, SourceLocation } from '../diagnostics/diagnostic.js';
import type { AttributeOrigin, Graph, GraphEdge } from '../graph/model.js';
import type { LiftedToken } from './normalize-source.js';

/**
 * Subgraphs nested deeper than this are refused: real pipelines nest a
 * handful, and deeper input would overflow the stack while building.
 */
export const MAX_SUBGRAPH_DEPTH = 200;

/** Node ids the dialect accepts (spec §2.3). */
export const NODE_ID_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What the builder needs to turn normalised-text positions and placeholders back into the user's. */
export interface BuildContext {
  tokens: readonly LiftedToken[];
  /** Location in the user's file of an offset in the normalised text. */
  locate(normalizedOffset: number): SourceLocation;
  diagnostics: Diagnostic[];
}

interface Assigned {
  value: string;
  origin: AttributeOrigin;
}

interface Scope {
  nodeDefaults: Record<string, Assigned>;
  edgeDefaults: Record<string, Assigned>;
  classes: string[];
  depth: number;
}

interface MutableNode {
  id: string;
  attributes: Record<string, string>;
  origins: Record<string, AttributeOrigin>;
  subgraphClasses: string[];
  location: SourceLocation;
}

/**
 * Derives a class name from a subgraph label (spec §2.10): lower-cased,
 * spaces to hyphens, everything but `[a-z0-9-]` removed.
 */
export function classFromLabel(label: string): string {
  return label
    .toLowerCase()
    .replace(/\s+/g, '-')
    .replace(/[^a-z0-9-]/g, '');
}

/**
 * Maps a ts-graphviz AST of normalised text to orchestra's {@link Graph}:
 * flattens subgraphs with scoped defaults, expands edge chains, resolves
 * placeholders, and reports what the Attractor subset forbids. Returns
 * undefined when there is no usable graph (the reason is in `diagnostics`).
 */
export function buildGraph(dot: DotASTNode, ctx: BuildContext, file?: string): Graph | undefined {
  return startGraph(dot, ctx, file)?.finish();
}

/** A graph being built from a large file's statements, one parsed piece at a time. */
export interface PartialGraph {
  /** Adds root-level statements parsed from another piece of the text; `locate` maps that piece's offsets. */
  add(statements: readonly ClusterStatementASTNode[], locate: (normalizedOffset: number) => SourceLocation): void;
  /** The graph of every statement added. */
  finish(): Graph;
}

/**
 * Like {@link buildGraph}, for a file parsed in pieces (see
 * parse-pipeline-source.ts): `dot` is the first piece (the `digraph` header
 * and the first statements); the others are added in order. Undefined when
 * there is no usable graph.
 */
export function startGraph(dot: DotASTNode, ctx: BuildContext, file?: string): PartialGraph | undefined {
  const graphs = dot.children.filter((c): c is GraphASTNode => c.type === 'Graph');
  if (graphs.length === 0) {
    ctx.diagnostics.push({
      rule: 'syntax',
      severity: 'error',
      message: 'no digraph found: a pipeline file holds exactly one `digraph Name { ... }`',
      location: ctx.locate(0),
    });
    return undefined;
  }
  const root = graphs[0] as GraphASTNode;
  for (const extra of graphs.slice(1)) {
    ctx.diagnostics.push({
      rule: 'dialect',
      severity: 'error',
      message: 'only one graph per file is allowed',
      fix: 'move each pipeline into its own .dot file',
      location: at(ctx, extra),
    });
  }
  const rootLocation = at(ctx, root);
  if (!root.directed) {
    ctx.diagnostics.push({
      rule: 'dialect',
      severity: 'error',
      message: 'undirected graphs are not supported',
      fix: 'write `digraph` and use `->` for edges',
      location: rootLocation,
    });
  }
  if (root.strict) {
    ctx.diagnostics.push({
      rule: 'dialect',
      severity: 'error',
      message: '`strict` graphs are not supported',
      fix: 'remove the `strict` keyword',
      location: rootLocation,
    });
  }
  return new GraphBuilder(ctx).start(root, rootLocation, file);
}

class GraphBuilder {
  private readonly nodes = new Map<string, MutableNode>();
  private readonly edges: GraphEdge[] = [];
  private readonly graphAttributes: Record<string, string> = {};
  private readonly graphOrigins: Record<string, AttributeOrigin> = {};

  constructor(private ctx: BuildContext) {}

  start(root: GraphASTNode, location: SourceLocation, file?: string): PartialGraph {
    const name = root.id ? this.literal(root.id) : undefined;
    const rootScope: Scope = { nodeDefaults: {}, edgeDefaults: {}, classes: [], depth: 0 };
    this.statements(root.children, rootScope, true);
    return {
      add: (statements, locate) => {
        this.ctx = { ...this.ctx, locate };
        this.statements(statements, rootScope, true);
      },
      finish: () => ({
        name: name ?? '',
        attributes: this.graphAttributes,
        origins: this.graphOrigins,
        nodes: this.nodes,
        edges: this.edges,
        location,
        ...(file === undefined ? {} : { file }),
      }),
    };
  }

  private statements(children: readonly ClusterStatementASTNode[], scope: Scope, isRoot: boolean): void {
    for (const stmt of children) {
      switch (stmt.type) {
        case 'Attribute': {
          // `key = value` at statement level: a graph attribute at the root, a subgraph attribute inside.
          if (isRoot) this.setGraphAttribute(stmt);
          break;
        }
        case 'AttributeList': {
          if (stmt.kind === 'Graph') {
            if (isRoot) for (const a of stmt.children) if (a.type === 'Attribute') this.setGraphAttribute(a);
          } else {
            const defaults = stmt.kind === 'Node' ? scope.nodeDefaults : scope.edgeDefaults;
            this.eachAttribute(stmt.children, (key, value, attr) => {
              defaults[key] = { value, origin: { ...this.origin(attr), source: 'default' } };
            });
          }
          break;
        }
        case 'Node':
          this.node(stmt, scope);
          break;
        case 'Edge':
          this.edge(stmt, scope);
          break;
        case 'Subgraph':
          this.subgraph(stmt, scope);
          break;
        case 'Comment':
          break;
      }
    }
  }

  private subgraph(stmt: SubgraphASTNode, parent: Scope): void {
    if (parent.depth >= MAX_SUBGRAPH_DEPTH) {
      this.ctx.diagnostics.push({
        rule: 'input_limit',
        severity: 'error',
        message: `subgraphs nested more than ${MAX_SUBGRAPH_DEPTH} deep`,
        fix: 'flatten the subgraphs',
        location: at(this.ctx, stmt),
      });
      return;
    }
    // A subgraph's label may be written after its nodes; read it first.
    let label: string | undefined;
    for (const child of stmt.children) {
      if (child.type === 'Attribute' && this.literal(child.key) === 'label') label = this.literal(child.value);
      if (child.type === 'AttributeList' && child.kind === 'Graph') {
        for (const a of child.children) if (a.type === 'Attribute' && this.literal(a.key) === 'label') label = this.literal(a.value);
      }
    }
    const derived = label === undefined ? '' : classFromLabel(label);
    const scope: Scope = {
      nodeDefaults: { ...parent.nodeDefaults },
      edgeDefaults: { ...parent.edgeDefaults },
      classes: derived && !parent.classes.includes(derived) ? [...parent.classes, derived] : parent.classes,
      depth: parent.depth + 1,
    };
    this.statements(stmt.children, scope, false);
  }

  private node(stmt: NodeASTNode, scope: Scope): void {
    const node = this.ensureNode(stmt.id, scope);
    if (!node) return;
    this.eachAttribute(stmt.children, (key, value, attr) => {
      const origin = this.origin(attr);
      const earlier = node.origins[key];
      if (earlier?.source === 'explicit' && node.attributes[key] !== value) this.redeclared(node, key, node.attributes[key] as string, value, earlier, origin);
      node.attributes[key] = value;
      node.origins[key] = origin;
    });
  }

  /**
   * `node_redeclared` (warning): a node statement sets an attribute that an
   * earlier statement of the same node set to another value. DOT merges the
   * two silently and the later value wins; a `node [...]` default being
   * overridden is not reported.
   */
  private redeclared(node: MutableNode, key: string, before: string, after: string, earlier: AttributeOrigin, origin: AttributeOrigin): void {
    const line = earlier.location?.line;
    this.ctx.diagnostics.push({
      rule: 'node_redeclared',
      severity: 'warning',
      message: `node ${node.id}: ${key}=${shortValue(after)} replaces ${key}=${shortValue(before)} set on line ${line}; the later value wins`,
      fix: `set ${key} once: remove it from one of the declarations of ${node.id} (line ${line} or this one)`,
      nodeId: node.id,
      ...(origin.location ? { location: origin.location } : {}),
    });
  }

  private edge(stmt: EdgeASTNode, scope: Scope): void {
    const ids: { id: string; location: SourceLocation }[] = [];
    for (const target of stmt.targets) {
      if (target.type === 'NodeRefGroup') {
        this.ctx.diagnostics.push({
          rule: 'dialect',
          severity: 'error',
          message: 'edges to a group `{ ... }` are not supported',
          fix: 'write one edge statement per target',
          location: at(this.ctx, target),
        });
        return;
      }
      const node = this.ensureNode(target.id, scope);
      if (!node) return;
      ids.push({ id: node.id, location: at(this.ctx, target) });
    }
    const attributes: Record<string, string> = {};
    const origins: Record<string, AttributeOrigin> = {};
    for (const [key, assigned] of Object.entries(scope.edgeDefaults)) {
      attributes[key] = assigned.value;
      origins[key] = assigned.origin;
    }
    this.eachAttribute(stmt.children, (key, value, attr) => {
      attributes[key] = value;
      origins[key] = this.origin(attr);
    });
    for (let i = 0; i + 1 < ids.length; i++) {
      const from = ids[i] as (typeof ids)[number];
      const to = ids[i + 1] as (typeof ids)[number];
      this.edges.push({ from: from.id, to: to.id, attributes, origins, location: from.location });
    }
  }

  /** Returns the node for a literal id, creating it with the scope's defaults on first mention. */
  private ensureNode(idLiteral: LiteralASTNode, scope: Scope): MutableNode | undefined {
    const id = this.literal(idLiteral);
    if (id === undefined) return undefined;
    const location = at(this.ctx, idLiteral);
    let node = this.nodes.get(id);
    if (!node) {
      if (!NODE_ID_PATTERN.test(id)) {
        this.ctx.diagnostics.push({
          rule: 'node_id',
          severity: 'error',
          message: `invalid node id ${JSON.stringify(id)}: ids must match [A-Za-z_][A-Za-z0-9_]*`,
          fix: 'use a bare identifier as the id and put the readable name in `label`',
          nodeId: id,
          location,
        });
      }
      node = { id, attributes: {}, origins: {}, subgraphClasses: [...scope.classes], location };
      for (const [key, assigned] of Object.entries(scope.nodeDefaults)) {
        node.attributes[key] = assigned.value;
        node.origins[key] = assigned.origin;
      }
      this.nodes.set(id, node);
    } else {
      for (const c of scope.classes) if (!node.subgraphClasses.includes(c)) node.subgraphClasses.push(c);
    }
    return node;
  }

  private setGraphAttribute(attr: AttributeASTNode): void {
    const key = this.literal(attr.key);
    const value = this.literal(attr.value);
    if (key === undefined || value === undefined) return;
    this.graphAttributes[key] = value;
    this.graphOrigins[key] = this.origin(attr);
  }

  /** Calls `visit` for each `key=value` of an attribute list, placeholders resolved. */
  private eachAttribute(
    children: readonly (AttributeASTNode | { type: 'Comment' })[],
    visit: (key: string, value: string, attr: AttributeASTNode) => void,
  ): void {
    for (const attr of children) {
      if (attr.type !== 'Attribute') continue;
      const key = this.literal(attr.key);
      const value = this.literal(attr.value);
      if (key !== undefined && value !== undefined) visit(key, value, attr);
    }
  }

  private origin(attr: AttributeASTNode): AttributeOrigin {
    return {
      source: 'explicit',
      location: at(this.ctx, attr),
      valueLocation: at(this.ctx, attr.value),
    };
  }

  /** The text of a literal, resolving placeholders; undefined (with a diagnostic) for HTML strings. */
  private literal(lit: LiteralASTNode): string | undefined {
    if (lit.quoted === 'html') {
      this.ctx.diagnostics.push({
        rule: 'dialect',
        severity: 'error',
        message: 'HTML-like values `<...>` are not supported',
        fix: 'use a double-quoted string',
        location: at(this.ctx, lit),
      });
      return undefined;
    }
    // Every quoted literal is a placeholder for a string lifted by normalizeSource.
    if (lit.quoted) return this.ctx.tokens[Number(lit.value)]?.value ?? lit.value;
    return lit.value;
  }
}

/** A value for a message: quoted, cut at 40 characters. */
function shortValue(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 39)}…` : value);
}

/** Location in the user's file of an AST node (parsed nodes always carry one). */
function at(ctx: BuildContext, node: { location?: { start: { offset: number } } }): SourceLocation {
  return ctx.locate(node.location?.start.offset ?? 0);
}
