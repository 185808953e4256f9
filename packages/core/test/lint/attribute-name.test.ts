import { describe, expect, it } from 'vitest';
import { validate } from '../../src/index.js';
import { UNTYPED_ATTRIBUTES } from '../../src/lint/rules/attribute-name.js';
import { byRule, graphOf, pipeline } from '../helpers.js';

/** Every attribute of Graphviz (graphviz.org/doc/info/attrs.html): none of them is a typo of orchestra's. */
const GRAPHVIZ_ATTRIBUTES = `_background area arrowhead arrowsize arrowtail bb beautify bgcolor center charset class cluster clusterrank color
colorscheme comment compound concentrate constraint Damping decorate defaultdist dim dimen dir diredgeconstraints distortion dpi
edgehref edgetarget edgetooltip edgeURL epsilon esep fillcolor fixedsize fontcolor fontname fontnames fontpath fontsize forcelabels
gradientangle group head_lp headclip headhref headlabel headport headtarget headtooltip headURL height href id image imagepath
imagepos imagescale inputscale K label label_scheme labelangle labeldistance labelfloat labelfontcolor labelfontname labelfontsize
labelhref labeljust labelloc labeltarget labeltooltip labelURL landscape layer layerlistsep layers layerselect layersep layout len
levels levelsgap lhead lheight linelength lp ltail lwidth margin maxiter mclimit mindist minlen mode model newrank nodesep nojustify
normalize notranslate nslimit nslimit1 oneblock ordering orientation outputorder overlap overlap_scaling overlap_shrink pack packmode
pad page pagedir pencolor penwidth peripheries pin pos quadtree quantum radius rank rankdir ranksep ratio rects regular remincross
repulsiveforce resolution root rotate rotation samehead sametail samplepoints scale searchsize sep shape shapefile showboxes sides
size skew smoothing sortv splines start style stylesheet tailclip tailhref taillabel tailport tailtarget tailtooltip tailURL target
TBbalance tooltip truecolor URL vertices viewport voro_margin weight width xdotversion xlabel xlp z`.split(/\s+/);

describe('attribute_name', () => {
  it('catches a typo of tool_command like one of prompt, where it is written', () => {
    const g = graphOf(pipeline('  lint [shape=parallelogram, tool_comand="make lint"]\n  work [promt="x"]\n  start -> lint -> work -> exit'));
    const d = byRule(validate(g), 'attribute_name');
    expect(d.map((x) => [x.severity, x.message, x.fix, x.nodeId, x.location?.line, x.location?.column])).toEqual([
      ['warning', 'node lint: unknown attribute "tool_comand"; it is ignored', 'did you mean "tool_command"?', 'lint', 4, 30],
      ['warning', 'node work: unknown attribute "promt"; it is ignored', 'did you mean "prompt"?', 'work', 5, 9],
    ]);
    for (const typo of ['tool_commnd', 'toolcommand', 'tool_cmmand', 'tool_commands', 'tol_command']) {
      const one = byRule(validate(graphOf(pipeline(`  t [shape=parallelogram, tool_command="true", ${typo}="x"]\n  start -> t -> exit`))), 'attribute_name');
      expect(one.map((x) => x.fix), typo).toEqual(['did you mean "tool_command"?']);
    }
  });

  it('knows tool_command itself, on a node only', () => {
    expect(UNTYPED_ATTRIBUTES.node).toContain('tool_command');
    const g = graphOf(pipeline('  t [shape=parallelogram, tool_command="true"]\n  start -> t -> exit'));
    expect(validate(g)).toEqual([]);
  });

  it('takes Graphviz names as Graphviz spells them: Label is a typo', () => {
    const d = byRule(validate(graphOf(pipeline('  a [Label="x", prompt="p"]\n  start -> a -> exit'))), 'attribute_name');
    expect(d.map((x) => x.fix)).toEqual(['did you mean "label"?']);
  });

  it('says nothing about any Graphviz attribute, on the graph, a node or an edge', () => {
    const list = GRAPHVIZ_ATTRIBUTES.map((a) => `${a}="1"`).join(', ');
    const g = graphOf(`digraph G {\n  graph [${list}]\n  start [shape=Mdiamond, ${list}]\n  exit [shape=Msquare]\n  start -> exit [${list}]\n}\n`);
    expect(byRule(validate(g), 'attribute_name')).toEqual([]);
  });
});
