import { escapeControl } from '@orchestra/core/loader';

/** How many model ids `orchestra doctor` prints per endpoint. */
export const MODEL_LIST_LIMIT = 20;

/** Longest model id printed whole; longer ones are cut. */
const MAX_ID_LENGTH = 120;

/** An id from an endpoint as it can be printed: control characters escaped, on one line, cut when very long. */
export function printableId(id: string): string {
  const safe = escapeControl(id, { keepNewlines: false });
  return safe.length > MAX_ID_LENGTH ? `${safe.slice(0, MAX_ID_LENGTH - 1)}…` : safe;
}

/**
 * The models an endpoint lists, one line each (`- <id>`), in the endpoint's
 * order, at most `limit` of them and then `… and K more`.
 */
export function modelListLines(ids: readonly string[], limit = MODEL_LIST_LIMIT): string[] {
  const lines = ids.slice(0, limit).map((id) => `- ${printableId(id)}`);
  if (ids.length > limit) lines.push(`… and ${ids.length - limit} more`);
  return lines;
}
