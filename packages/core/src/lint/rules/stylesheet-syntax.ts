import { locateInValue } from '../../graph/locate-in-value.js';
import { parseStylesheet } from '../../stylesheet/parse-stylesheet.js';
import type { LintRule } from '../lint-rule.js';

/** `stylesheet_syntax` (error): `model_stylesheet` parses (spec §8.2). */
export const stylesheetSyntaxRule: LintRule = {
  name: 'stylesheet_syntax',
  apply(graph) {
    const source = graph.attributes.model_stylesheet;
    if (source === undefined) return [];
    const parsed = parseStylesheet(source);
    if (parsed.ok) return [];
    const location = locateInValue(graph.origins.model_stylesheet, source, parsed.error.index) ?? graph.location;
    return [
      {
        rule: this.name,
        severity: 'error',
        message: `model_stylesheet: ${parsed.error.message}`,
        ...(parsed.error.fix ? { fix: parsed.error.fix } : {}),
        ...(location ? { location } : {}),
      },
    ];
  },
};
