/**
 * orchestra's pictures of pipelines: SVG through Graphviz compiled to
 * WebAssembly, with a run's state overlaid. (The HTTP API and the web page
 * will live here too.)
 * @packageDocumentation
 */
export { nodeStates, type NodeState } from './render/node-states.js';
export { STATE_COLOURS, pictureGraph, renderPipelineSvg } from './render/pipeline-picture.js';
