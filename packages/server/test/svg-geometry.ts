/** A point of an SVG drawing. */
export type Point = readonly [x: number, y: number];

/** The edges of a Graphviz SVG as `{ from, to, d }`, ports left out of the names (`a:e->b:e` is `a` to `b`). */
export function svgEdges(svg: string): { from: string; to: string; d: string }[] {
  const edges: { from: string; to: string; d: string }[] = [];
  for (const m of svg.matchAll(/<g id="[^"]*" class="edge">\s*<title>([^<]*)<\/title>\s*<path[^>]* d="([^"]*)"/g)) {
    const title = (m[1] as string).replace(/&#45;/g, '-').replace(/&gt;/g, '>');
    const [from, to] = title.split('->').map((end) => end.replace(/:[a-z]+$/, ''));
    edges.push({ from: from as string, to: to as string, d: m[2] as string });
  }
  return edges;
}

/** Points along an SVG path made of `M` and cubic `C` segments (as Graphviz writes edges), 21 per segment. */
export function pathPoints(d: string): Point[] {
  const numbers = d.replace(/[MC]/g, ' ').trim().split(/[\s,]+/).map(Number);
  const controls: Point[] = [];
  for (let i = 0; i + 1 < numbers.length; i += 2) controls.push([numbers[i] as number, numbers[i + 1] as number]);
  const points: Point[] = [];
  for (let i = 0; i + 3 < controls.length; i += 3) {
    const [a, b, c, e] = controls.slice(i, i + 4) as [Point, Point, Point, Point];
    for (let step = 0; step <= 20; step++) {
      const t = step / 20;
      const u = 1 - t;
      const at = (k: 0 | 1) => u * u * u * a[k] + 3 * u * u * t * b[k] + 3 * u * t * t * c[k] + t * t * t * e[k];
      points.push([at(0), at(1)]);
    }
  }
  return points;
}

/**
 * How far apart two edge paths run, in SVG units (points): the mean distance
 * from the middle 40% of the first path to the nearest point of the second.
 * Ends are left out, as both paths meet the same nodes there.
 */
export function meanGap(first: string, second: string): number {
  const a = pathPoints(first);
  const b = pathPoints(second);
  const middle = a.slice(Math.floor(a.length * 0.3), Math.ceil(a.length * 0.7));
  const gaps = middle.map(([x, y]) => Math.min(...b.map(([u, v]) => Math.hypot(x - u, y - v))));
  return gaps.reduce((sum, g) => sum + g, 0) / gaps.length;
}

/** The centre of each node's caption (`<text>` of its first line), by node id. */
export function nodeCentres(svg: string): Map<string, Point> {
  const centres = new Map<string, Point>();
  for (const m of svg.matchAll(/<g id="node-?[^"]*" class="node[^"]*">\s*<title>([^<]*)<\/title>[\s\S]*?<text[^>]* x="([-\d.]+)" y="([-\d.]+)"/g)) {
    centres.set((m[1] as string).replace(/&#45;/g, '-'), [Number(m[2]), Number(m[3])]);
  }
  return centres;
}
