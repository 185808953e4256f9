import { generatePipeline } from '../testing/src/index.js';
import { normalizeSource } from './src/dot/normalize-source.js';
import { parsePipelineSource } from './src/dot/parse-pipeline-source.js';
import { BUILT_IN_TRANSFORMS } from './src/transforms/built-in-transforms.js';
import { validate } from './src/lint/validate.js';
import { parse } from 'ts-graphviz/ast';
const src = generatePipeline({ nodes: 10000 });
for (let k=0;k<6;k++){
const T:Record<string,number>={};
let t=performance.now(); parse(src, {maxASTNodes: 0}); T.bare=performance.now()-t;
t=performance.now(); const n = normalizeSource(src); T.norm=performance.now()-t;
t=performance.now(); parse(n.text, {maxASTNodes: 0, maxInputSize:0}); T.parseNorm=performance.now()-t;
t=performance.now(); let g = parsePipelineSource(src).graph!; T.parseAll=performance.now()-t;
t=performance.now(); for (const tr of BUILT_IN_TRANSFORMS) g = tr.apply(g); T.transforms=performance.now()-t;
t=performance.now(); validate(g); T.validate=performance.now()-t;
console.log(Object.entries(T).map(([k,v])=>k+'='+v.toFixed(0)).join(' '), n.text.length);
}
