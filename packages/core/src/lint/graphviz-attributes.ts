/**
 * Every attribute Graphviz defines (graphviz.org/doc/info/attrs.html), as
 * Graphviz spells them (names are case-sensitive: `Label` is no Graphviz
 * attribute, and is reported as a typo of `label`). They are legitimate in a pipeline (it is a DOT file), so
 * `attribute_name` never takes one for a typo, whatever it is written on:
 * `height` is not a misspelt `weight`, nor `scale` a misspelt `shape`.
 */
export const GRAPHVIZ_ATTRIBUTES: ReadonlySet<string> = new Set(
  `_background area arrowhead arrowsize arrowtail bb beautify bgcolor center charset class cluster clusterrank color
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
TBbalance tooltip truecolor URL vertices viewport voro_margin weight width xdotversion xlabel xlp z`.split(/\s+/),
);
