import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { loadPipeline, loadPipelineFile, runPipeline, simulationBackend, type Graph } from '@orchestra/core';
import { readCheckpoint } from '@orchestra/core/store';
import { FIXTURES_DIR, generateLinearPipeline } from '@orchestra/testing';
import { nodeStates, pictureGraph, renderPipelineSvg, STATE_COLOURS } from '../src/index.js';

/** The <title>s Graphviz gives node groups (`class="node"`), in the SVG's order. */
function nodeTitles(svg: string): string[] {
  const titles: string[] = [];
  const walk = (element: unknown): void => {
    if (Array.isArray(element)) return element.forEach(walk);
    if (typeof element !== 'object' || element === null) return;
    const e = element as Record<string, unknown>;
    if (e['@_class']?.toString().split(' ').includes('node') && typeof e.title === 'string') titles.push(e.title);
    for (const [key, value] of Object.entries(e)) if (!key.startsWith('@_')) walk(value);
  };
  walk(new XMLParser({ ignoreAttributes: false, processEntities: true }).parse(svg));
  return titles;
}

describe('pictures of pipelines (Graphviz in WebAssembly)', () => {
  const fixtures = readdirSync(FIXTURES_DIR).filter((f) => f.endsWith('.dot'));

  it.each(fixtures)('renders fixtures/%s to SVG that parses as XML and holds every node', async (name) => {
    const loaded = await loadPipelineFile(join(FIXTURES_DIR, name));
    const graph = loaded.graph as Graph;
    const svg = await renderPipelineSvg(graph);
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(nodeTitles(svg).sort()).toEqual([...graph.nodes.keys()].sort());
  });

  it('never hands the dialect to Graphviz: dotted keys, prompts and odd ids come through as captions only', async () => {
    const graph = loadPipeline('digraph P {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  "a<b>&c" [prompt="say \\"hi\\" </svg>", agent.mode="interactive", shape=weird]\n  start -> "a<b>&c" [condition="outcome=success", label="Go"]\n  "a<b>&c" -> exit\n}\n').graph as Graph;
    const svg = await renderPipelineSvg(graph);
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(nodeTitles(svg)).toContain('a<b>&c');
    expect(svg).toContain('Go');
    expect(svg).toContain('[outcome=success]');
    const picture = pictureGraph(graph);
    expect(picture.nodes?.find((n) => n.name === 'a<b>&c')?.attributes).toMatchObject({ shape: 'box', id: 'node-a<b>&c', class: 'state-pending' });
    expect(JSON.stringify(picture)).not.toContain('agent.mode');
  });

  it('shows backslashes literally and breaks a caption into lines', async () => {
    const graph = loadPipeline('digraph P {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  t [label="Copy \\\\N files", shape=parallelogram, tool_command="cp a b"]\n  start -> t -> exit\n}\n').graph as Graph;
    expect(graph.nodes.get('t')?.attributes.label).toBe('Copy \\N files');
    const svg = await renderPipelineSvg(graph);
    expect(svg).toContain('>Copy \\N files</text>'); // not "Copy t files"
    expect(svg).toContain('>cp a b</text>'); // the command on a line of its own
  });

  it('overlays a run: completed, failed, current and pending nodes in their colours', async () => {
    const source = 'digraph P {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  a [prompt="a"]\n  b [shape=parallelogram, tool_command="exit 3"]\n  c [prompt="c"]\n  start -> a -> b -> c -> exit\n}\n';
    const graph = loadPipeline(source).graph as Graph;
    const run = await runPipeline(graph, { backend: simulationBackend, logsRoot: join(mkdtempSync(join(tmpdir(), 'render-')), 'run') });
    expect(run.status).toBe('fail');
    const states = nodeStates(graph, readCheckpoint(run.logsRoot));
    expect(Object.fromEntries(states)).toEqual({ start: 'completed', exit: 'pending', a: 'completed', b: 'failed', c: 'pending' });
    const svg = await renderPipelineSvg(graph, states);
    expect(svg).toContain(`fill="${STATE_COLOURS.failed}"`);
    expect(svg).toContain(`fill="${STATE_COLOURS.completed}"`);
    // Graphviz writes "-" as "&#45;" in attributes; an XML parser (a browser) reads id="node-b".
    expect(svg).toContain('<g id="node&#45;b" class="node state&#45;failed">');
  });

  it('marks where an unfinished run stands', () => {
    const graph = loadPipeline('digraph P {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  a [prompt="a"]\n  start -> a -> exit\n}\n').graph as Graph;
    const states = nodeStates(graph, { completed_nodes: ['start'], node_outcomes: { start: 'success' }, current_node: 'a', status: 'interrupted' } as never);
    expect(states.get('a')).toBe('current');
    expect(pictureGraph(graph, states).nodes?.find((n) => n.name === 'a')?.attributes).toMatchObject({ penwidth: 2.5, fillcolor: STATE_COLOURS.current });
  });

  it('renders a 1,000-node pipeline', async () => {
    const graph = loadPipeline(generateLinearPipeline(1000)).graph as Graph;
    const svg = await renderPipelineSvg(graph);
    expect(nodeTitles(svg)).toHaveLength(graph.nodes.size);
  }, 60_000);
});
