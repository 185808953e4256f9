import type { GraphNode, SourceLocation } from '@orchestra/core';

/** A node attribute's value, trimmed; undefined when absent or blank. */
export function nodeAttribute(node: GraphNode, name: string): string | undefined {
  const value = node.attributes[name]?.trim();
  return value ? value : undefined;
}

function formatLocation(location: SourceLocation): string {
  return `${location.file ?? '<pipeline>'}:${location.line}:${location.column}`;
}

/**
 * Where a node attribute came from, in words: `node plan attribute llm_model`,
 * followed by where it is written when the graph knows:
 * `(pipeline.dot:12:5)`, `(from a node [...] default at pipeline.dot:3:8)`,
 * `(set by model_stylesheet at pipeline.dot:2:3)`.
 */
export function attributeSource(node: GraphNode, name: string): string {
  const base = `node ${node.id} attribute ${name}`;
  const origin = node.origins[name];
  if (!origin) return base;
  const location = origin.valueLocation ?? origin.location;
  switch (origin.source) {
    case 'explicit':
      return location ? `${base} (${formatLocation(location)})` : base;
    case 'default':
      return location ? `${base} (from a node [...] default at ${formatLocation(location)})` : `${base} (from a node [...] default)`;
    case 'transform':
      return origin.location ? `${base} (set by model_stylesheet at ${formatLocation(origin.location)})` : `${base} (set by a transform)`;
  }
}
