/**
 * Node ids the run directory keeps for itself. A node's stage directory is
 * `<run dir>/<node id>`, so a node may not take the name of an entry the run
 * directory has for its own use (docs/run-directory.md). Only dot-free names
 * matter: node ids cannot contain a dot, so the run's files (`manifest.json`,
 * `run.lock`, ...) can never collide. `run/run-files.ts` checks its layout
 * against this list; the `node_id_reserved` lint rule refuses these ids.
 */
export const RESERVED_NODE_IDS = ['artifacts'] as const;

/** A name of {@link RESERVED_NODE_IDS}. */
export type ReservedNodeId = (typeof RESERVED_NODE_IDS)[number];

/**
 * The reserved name a node id would collide with, if any. Compared without
 * case: on a case-insensitive file system (macOS, Windows) `Artifacts` is the
 * same directory as `artifacts`.
 */
export function reservedNameOf(id: string): ReservedNodeId | undefined {
  const lower = id.toLowerCase();
  return RESERVED_NODE_IDS.find((name) => name === lower);
}
