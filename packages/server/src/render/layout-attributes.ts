import type { Diagnostic, Graph } from '@orchestra/core';
import { escapeControl } from '@orchestra/core/loader';

/** How one layout attribute's value is checked: the value to hand Graphviz, or `undefined` when it cannot be used. */
interface LayoutRule {
  accept(value: string): string | undefined;
  /** What the value may be, in words. */
  expected: string;
}

function oneOf(values: readonly string[], aliases: Readonly<Record<string, string>> = {}): LayoutRule {
  return {
    accept: (value) => {
      const key = value.trim().toLowerCase();
      return aliases[key] ?? values.find((v) => v.toLowerCase() === key);
    },
    expected: `one of ${values.join(', ')}`,
  };
}

const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/** Inches, as a plain decimal between `min` and `max`. */
function inches(min: number, max: number, options: { equally?: boolean } = {}): LayoutRule {
  return {
    accept: (value) => {
      const match = /^\s*([\d.]*)\s*(equally)?\s*$/.exec(value);
      if (!match || (!match[1] && !match[2]) || (match[2] && !options.equally)) return undefined;
      const size = match[1] ? (NUMBER.test(match[1]) ? Number(match[1]) : Number.NaN) : undefined;
      if (size !== undefined && !(size >= min && size <= max)) return undefined;
      return [size === undefined ? undefined : String(size), match[2]].filter(Boolean).join(' ');
    },
    expected: `a number of inches from ${min} to ${max}${options.equally ? ', optionally followed by "equally"' : ''}`,
  };
}

/**
 * The graph attributes of a pipeline that reach Graphviz when it is drawn:
 * layout only, each value checked. Anything that reads files (`imagepath`,
 * `fontpath`), changes the output (`charset`, `stylesheet`, `href`) or can
 * make the layout very slow (`mclimit`, `nslimit`) is never passed, and
 * neither is `concentrate`, which merges edges. `splines=none` is refused:
 * a picture of a workflow without its transitions says nothing.
 */
export const LAYOUT_ATTRIBUTES: Readonly<Record<string, LayoutRule>> = {
  rankdir: oneOf(['TB', 'LR', 'BT', 'RL']),
  nodesep: inches(0.02, 10),
  ranksep: inches(0.02, 10, { equally: true }),
  splines: oneOf(['spline', 'polyline', 'ortho', 'curved', 'line'], { true: 'spline', yes: 'spline', false: 'line', no: 'line' }),
  newrank: oneOf(['true', 'false'], { yes: 'true', no: 'false', '1': 'true', '0': 'false' }),
  ordering: oneOf(['out', 'in']),
  labelloc: oneOf(['t', 'b']),
  labeljust: oneOf(['l', 'c', 'r']),
};

/** The layout attributes a picture uses, and a warning for each value it could not use. */
export interface PictureLayout {
  /** Checked values, by attribute name, as Graphviz reads them (`rankdir=lr` becomes `LR`). */
  attributes: Record<string, string>;
  /** One `render_attribute` warning per unusable value, at the value's position when known. */
  problems: Diagnostic[];
}

/**
 * The graph-level layout attributes of a pipeline that its picture honours
 * (see {@link LAYOUT_ATTRIBUTES}), each value checked against what Graphviz
 * accepts for it; an unusable value is left out (Graphviz's default
 * applies) and reported as a warning. No value ever reaches Graphviz
 * unchecked, so none can add to the graph.
 */
export function pictureLayout(graph: Graph): PictureLayout {
  const attributes: Record<string, string> = {};
  const problems: Diagnostic[] = [];
  for (const [name, rule] of Object.entries(LAYOUT_ATTRIBUTES)) {
    const value = graph.attributes[name];
    if (value === undefined) continue;
    const accepted = rule.accept(value);
    if (accepted !== undefined) {
      attributes[name] = accepted;
      continue;
    }
    const location = graph.origins[name]?.valueLocation ?? graph.origins[name]?.location;
    const shown = escapeControl(JSON.stringify(value.length > 60 ? `${value.slice(0, 59)}…` : value));
    problems.push({
      rule: 'render_attribute',
      severity: 'warning',
      message: `${name}=${shown} is not used in the picture: expected ${rule.expected}`,
      ...(location ? { location } : {}),
    });
  }
  return { attributes, problems };
}
