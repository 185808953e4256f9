import { isAlias, isMap, isNode, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';
import type { KeyPath } from './key-path.js';

/** A 1-based line and column. */
export interface LineColumn {
  line: number;
  column: number;
}

/** What to point at: the key of an entry or its value. */
export type PositionTarget = 'key' | 'value';

/** Finds where key paths are written in one parsed YAML document. */
export interface YamlPositions {
  /** Whether the document writes this key path (a key with an empty value counts). */
  has(path: KeyPath): boolean;
  /**
   * Where a key path is written: its key or its value (an empty value points
   * at the key). A path that is not written points at the nearest mapping
   * that is: the key naming it, or the start of the document.
   */
  position(path: KeyPath, target?: PositionTarget): LineColumn;
}

interface Walk {
  found: boolean;
  /** The last node reached (the value at the path when found). */
  node: Node | undefined;
  /** The key node of the last entry reached, if any. */
  key: Node | undefined;
}

function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}

function isEmptyScalar(node: Node | undefined): boolean {
  return isScalar(node) && node.value === null && node.source === '';
}

/** Position lookups for `doc`, whose source offsets `lineCounter` mapped while parsing. */
export function yamlPositions(doc: Document, lineCounter: LineCounter): YamlPositions {
  const at = (offset: number | undefined): LineColumn | undefined => {
    if (offset === undefined) return undefined;
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const start = (node: Node | undefined): LineColumn | undefined => at(node?.range?.[0]);
  const documentStart = (): LineColumn => start(isNode(doc.contents) ? doc.contents : undefined) ?? { line: 1, column: 1 };

  const walk = (path: KeyPath): Walk => {
    let node: Node | undefined = isNode(doc.contents) ? doc.contents : undefined;
    let key: Node | undefined;
    for (const segment of path) {
      if (isAlias(node)) node = node.resolve(doc) as Node | undefined;
      if (isMap(node)) {
        const pair = node.items.find((p) => keyText(p.key) === String(segment));
        if (!pair) return { found: false, node, key };
        key = isNode(pair.key) ? pair.key : undefined;
        node = isNode(pair.value) ? pair.value : undefined;
      } else if (isSeq(node) && typeof segment === 'number') {
        const item = node.items[segment];
        if (!isNode(item)) return { found: false, node, key };
        key = undefined;
        node = item;
      } else {
        return { found: false, node, key };
      }
    }
    return { found: true, node, key };
  };

  return {
    has: (path) => walk(path).found,
    position(path, target = 'value') {
      const { found, node, key } = walk(path);
      if (!found) return start(key) ?? start(node) ?? documentStart();
      if (target === 'key' || node === undefined || isEmptyScalar(node)) return start(key) ?? start(node) ?? documentStart();
      return start(node) ?? start(key) ?? documentStart();
    },
  };
}
