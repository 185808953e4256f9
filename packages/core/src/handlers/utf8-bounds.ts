/** Bytes a UTF-8 sequence starting with `lead` takes; 0 for a byte that cannot start one. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xf0 && lead < 0xf8) return 4;
  if (lead >= 0xe0) return lead < 0xf0 ? 3 : 0;
  if (lead >= 0xc0) return 2;
  return 0;
}

/**
 * The first `maxBytes` bytes of `bytes`, shortened so they do not end in
 * the middle of a UTF-8 character (a character cut by the limit is dropped
 * whole). Bytes that are not valid UTF-8 are left as they are.
 */
export function utf8Prefix(bytes: Buffer, maxBytes: number): Buffer {
  const head = bytes.length <= maxBytes ? bytes : bytes.subarray(0, Math.max(0, maxBytes));
  // Find the start of the last character: at most 3 continuation bytes (10xxxxxx) back.
  let start = head.length - 1;
  while (start > head.length - 4 && start >= 0 && ((head[start] as number) & 0xc0) === 0x80) start--;
  if (start < 0) return head;
  const length = sequenceLength(head[start] as number);
  return length > 0 && start + length > head.length ? head.subarray(0, start) : head;
}

/**
 * `bytes` without the UTF-8 continuation bytes it starts with (at most 3):
 * the rest of a character whose beginning was cut off.
 */
export function utf8Suffix(bytes: Buffer): Buffer {
  let start = 0;
  while (start < 3 && start < bytes.length && ((bytes[start] as number) & 0xc0) === 0x80) start++;
  return bytes.subarray(start);
}

/**
 * `text` cut to at most `maxBytes` bytes of UTF-8, on a character boundary.
 * Text that fits is returned unchanged.
 */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes) return text; // even all-3-byte characters fit
  // `maxBytes` UTF-16 units encode to at least `maxBytes` bytes, so the cut lies within them.
  const encoded = Buffer.from(text.length > maxBytes ? text.slice(0, maxBytes) : text, 'utf8');
  if (encoded.length <= maxBytes && text.length <= maxBytes) return text;
  return utf8Prefix(encoded, maxBytes).toString('utf8');
}
