import { applyStylesheet } from '../stylesheet/apply-stylesheet.js';
import { parseStylesheet } from '../stylesheet/parse-stylesheet.js';
import type { Transform } from './transform.js';

/**
 * Applies the graph's `model_stylesheet` (spec §8). A stylesheet that does
 * not parse is left alone here; the `stylesheet_syntax` lint rule reports it.
 */
export const stylesheetTransform: Transform = {
  name: 'model_stylesheet',
  apply(graph) {
    const source = graph.attributes.model_stylesheet;
    if (!source || !source.trim()) return graph;
    const parsed = parseStylesheet(source);
    return parsed.ok ? applyStylesheet(graph, parsed.stylesheet) : graph;
  },
};
