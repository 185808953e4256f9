import { isAlias, isMap, isNode, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';

/** A path of keys and list indexes into a YAML document. */
export type YamlPath = readonly (string | number)[];

/** A 1-based line and column. */
export interface LineColumn {
  line: number;
  column: number;
}

/** Point at the key of an entry or at its value. */
export type PositionTarget = 'key' | 'value';

function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}

/**
 * Where a key path is written in a parsed YAML document: its key or its
 * value (an empty value points at the key). A path that is not written
 * points at the nearest written parent.
 */
export function yamlPosition(doc: Document, lineCounter: LineCounter, path: YamlPath, target: PositionTarget = 'value'): LineColumn {
  const at = (node: Node | undefined): LineColumn | undefined => {
    const offset = node?.range?.[0];
    if (offset === undefined) return undefined;
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  let node: Node | undefined = isNode(doc.contents) ? doc.contents : undefined;
  const fallback = at(node) ?? { line: 1, column: 1 };
  let key: Node | undefined;
  let found = true;
  for (const segment of path) {
    if (isAlias(node)) node = node.resolve(doc) as Node | undefined;
    if (isMap(node)) {
      const pair = node.items.find((p) => keyText(p.key) === String(segment));
      if (!pair) {
        found = false;
        break;
      }
      key = isNode(pair.key) ? pair.key : undefined;
      node = isNode(pair.value) ? pair.value : undefined;
    } else if (isSeq(node) && typeof segment === 'number' && isNode(node.items[segment])) {
      key = undefined;
      node = node.items[segment] as Node;
    } else {
      found = false;
      break;
    }
  }
  const empty = node === undefined || (isScalar(node) && node.value === null && node.source === '');
  if (!found || target === 'key' || empty) return at(key) ?? at(node) ?? fallback;
  return at(node) ?? at(key) ?? fallback;
}
