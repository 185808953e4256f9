import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPipeline, loadPipelineFile, type Graph } from '@orchestra/core';
import { FIXTURES_DIR } from '@orchestra/testing';
import { pictureGraph, pictureLayout, renderPipelineSvg } from '../src/index.js';
import { meanGap, nodeCentres, svgEdges } from './svg-geometry.js';

const graphOf = (source: string): Graph => {
  const loaded = loadPipeline(source);
  if (!loaded.graph) throw new Error(loaded.diagnostics.map((d) => d.message).join('; '));
  return loaded.graph;
};

/** start -> plan -> implement -> exit, with a way back from implement to plan; `back` and `graphLine` vary it. */
const loop = (back: string, graphLine = '') =>
  graphOf(`digraph L {\n  ${graphLine}\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  plan [prompt="p"]\n  implement [prompt="i"]\n  start -> plan\n  plan -> implement\n  ${back}\n  implement -> exit\n}\n`);

/** How far apart the edges between `a` and `b` (both of them, either direction) run in the picture. */
async function gapBetween(graph: Graph, a: string, b: string): Promise<number> {
  const edges = svgEdges(await renderPipelineSvg(graph)).filter((e) => [e.from, e.to].sort().join() === [a, b].sort().join());
  expect(edges).toHaveLength(2);
  return meanGap(edges[0]!.d, edges[1]!.d);
}

/** At least this far apart (points), two edges read as two lines with room for their arrowheads. */
const APART = 15;

describe('pictures follow the layout attributes of the pipeline', () => {
  it('draws rankdir=LR left to right (fixtures/human-gate.dot)', async () => {
    const graph = (await loadPipelineFile(join(FIXTURES_DIR, 'human-gate.dot'))).graph as Graph;
    const at = nodeCentres(await renderPipelineSvg(graph));
    const [start, gate, ship] = [at.get('start'), at.get('review_gate'), at.get('ship_it')];
    expect(start && gate && ship).toBeTruthy();
    expect(start![0]).toBeLessThan(gate![0]);
    expect(gate![0]).toBeLessThan(ship![0]);
    expect(Math.abs(start![1] - gate![1])).toBeLessThan(1); // one row
  });

  it('passes rankdir, nodesep, ranksep and splines through, case-insensitively where Graphviz is not', () => {
    const graph = loop('', 'rankdir=lr; nodesep=0.6; ranksep="1.5 equally"; splines=true; newrank=yes; labeljust=l');
    expect(pictureGraph(graph).graphAttributes).toMatchObject({ rankdir: 'LR', nodesep: '0.6', ranksep: '1.5 equally', splines: 'spline', newrank: 'true', labeljust: 'l' });
    expect(pictureLayout(graph).problems).toEqual([]);
  });

  it('lays out by ranksep: a larger one makes a top-to-bottom picture taller', async () => {
    const height = (svg: string) => Number(/<svg width="[\d.]+pt" height="([\d.]+)pt"/.exec(svg)?.[1]);
    const plain = height(await renderPipelineSvg(loop('')));
    const spread = height(await renderPipelineSvg(loop('', 'ranksep=2')));
    expect(spread).toBeGreaterThan(plain + 3 * 72);
  });

  it('never passes other graph attributes, and refuses values Graphviz would not take, with a warning at the value', () => {
    const graph = graphOf(
      'digraph P {\n  graph [imagepath="/etc", fontpath="/tmp", concentrate=true, mclimit=1000, charset="latin1", stylesheet="x.css"]\n  rankdir="LR]; pwned [label=owned]; x [shape=box"\n  nodesep=1e9\n  splines=none\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  start -> exit\n}\n',
    );
    const picture = pictureGraph(graph);
    expect(Object.keys(picture.graphAttributes ?? {}).sort()).toEqual(['fontname', 'rankdir']);
    expect(picture.graphAttributes?.rankdir).toBe('TB');
    const { problems } = pictureLayout(graph);
    expect(problems.map((p) => `${p.location?.line}:${p.location?.column} ${p.severity} [${p.rule}] ${p.message}`)).toEqual([
      '3:11 warning [render_attribute] rankdir="LR]; pwned [label=owned]; x [shape=box" is not used in the picture: expected one of TB, LR, BT, RL',
      '4:11 warning [render_attribute] nodesep="1e9" is not used in the picture: expected a number of inches from 0.02 to 10',
      '5:11 warning [render_attribute] splines="none" is not used in the picture: expected one of spline, polyline, ortho, curved, line',
    ]);
  });

  it('a hostile rankdir adds nothing to the SVG', async () => {
    const svg = await renderPipelineSvg(graphOf('digraph P {\n  rankdir="LR\\"]; pwned [label=\\"owned\\"]; //"\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  start -> exit\n}\n'));
    expect(svg).not.toContain('owned');
    expect([...nodeCentres(svg).keys()].sort()).toEqual(['exit', 'start']);
  });
});

describe('the two edges of a loop, and parallel edges, are drawn apart', () => {
  it.each([
    ['TB, the way back labelled', loop('implement -> plan [label="Retry", condition="outcome=fail"]')],
    ['TB, the way there labelled', graphOf('digraph L {\n start [shape=Mdiamond]\n exit [shape=Msquare]\n plan [prompt="p"]\n implement [prompt="i"]\n start -> plan\n plan -> implement [label="[F] Fix"]\n implement -> plan\n implement -> exit\n}\n')],
    ['LR, the way there labelled', graphOf('digraph L {\n rankdir=LR\n start [shape=Mdiamond]\n exit [shape=Msquare]\n plan [shape=hexagon, label="Review Changes"]\n implement [prompt="i"]\n start -> plan\n plan -> implement [label="[F] Fix"]\n implement -> plan\n implement -> exit\n}\n')],
    ['LR, no labels', loop('implement -> plan', 'rankdir=LR')],
    ['TB, splines=curved', loop('implement -> plan [label="Retry"]', 'splines=curved')],
    ['LR, splines=line', loop('implement -> plan [label="Retry"]', 'rankdir=LR; splines=line')],
    ['BT, splines=polyline', loop('implement -> plan [label="Retry"]', 'rankdir=BT; splines=polyline')],
  ])('%s', async (_name, graph) => {
    expect(await gapBetween(graph, 'plan', 'implement')).toBeGreaterThan(APART);
  });

  it.each([
    ['TB, the unlabelled one first', '', 'gate -> work\n gate -> work [label="[A] Approve"]'],
    ['LR', 'rankdir=LR', 'gate -> work [label="[A] Approve"]\n gate -> work'],
    ['both labelled, splines=curved', 'splines=curved', 'gate -> work [label="[A] Approve"]\n gate -> work [condition="outcome=fail"]'],
  ])('parallel edges: %s', async (_name, graphLine, edges) => {
    const graph = graphOf(`digraph P {\n ${graphLine}\n start [shape=Mdiamond]\n exit [shape=Msquare]\n gate [shape=hexagon, label="Review Changes"]\n work [prompt="w"]\n start -> gate\n ${edges}\n work -> exit\n}\n`);
    expect(await gapBetween(graph, 'gate', 'work')).toBeGreaterThan(APART);
  });

  it('the way back of a loop goes round the side: right when ranks run down, below when they run across', () => {
    const ports = (graph: Graph) => pictureGraph(graph).edges?.map((e) => `${e.tail}->${e.head} ${e.attributes?.tailport ?? '-'}/${e.attributes?.headport ?? '-'}`);
    expect(ports(loop('implement -> plan'))).toEqual(['start->plan -/-', 'plan->implement -/-', 'implement->plan e/e', 'implement->exit -/-']);
    expect(ports(loop('implement -> plan', 'rankdir=LR'))).toContain('implement->plan s/s');
    // Written before the way there, the way back is still the one sent round the side.
    const first = graphOf('digraph L {\n start [shape=Mdiamond]\n exit [shape=Msquare]\n start -> a\n b -> a\n a -> b\n b -> exit\n}\n');
    expect(ports(first)).toEqual(['start->a -/-', 'b->a e/e', 'a->b -/-', 'b->exit -/-']);
  });
});
