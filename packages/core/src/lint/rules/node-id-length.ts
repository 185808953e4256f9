import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { LintRule } from '../lint-rule.js';

/**
 * Most bytes (UTF-8) a node id may have: a node's stage directory is named
 * by its id, and file systems refuse a name longer than 255 bytes (Linux
 * ext4, btrfs, tmpfs, XFS; macOS APFS).
 */
export const MAX_NODE_ID_BYTES = 255;

const utf8 = new TextEncoder();

/** How many characters of a long id a message shows. */
const SHOWN = 40;

/**
 * `node_id_length` (error): no node id is longer than
 * {@link MAX_NODE_ID_BYTES} bytes of UTF-8. The node's stage directory
 * (`<run dir>/<node id>`) could not be created, and a run would stop there.
 * The other names a stage directory cannot have are refused elsewhere:
 * the loader's `node_id` accepts no `/`, `.` or NUL, and
 * `node_id_reserved` refuses the run directory's own entries.
 */
export const nodeIdLengthRule: LintRule = {
  name: 'node_id_length',
  apply(graph) {
    const out: Diagnostic[] = [];
    for (const node of graph.nodes.values()) {
      // Every UTF-16 unit is at most 3 bytes of UTF-8: most ids need no count.
      if (node.id.length * 3 <= MAX_NODE_ID_BYTES) continue;
      const bytes = utf8.encode(node.id).length;
      if (bytes <= MAX_NODE_ID_BYTES) continue;
      const characters = Array.from(node.id);
      const shown = characters.length > SHOWN ? `${characters.slice(0, SHOWN).join('')}...` : node.id;
      out.push({
        rule: this.name,
        severity: 'error',
        message: `node id ${shown} is ${bytes} bytes long: its stage directory would be named by it, and file systems refuse names over ${MAX_NODE_ID_BYTES} bytes`,
        fix: `shorten the id (keep the long name for people in label="...")`,
        nodeId: node.id,
        ...(node.location ? { location: node.location } : {}),
      });
    }
    return out;
  },
};
