/**
 * A DOT string literal for text to show (a label, the goal): `"` escaped and
 * line breaks as `\n`. The loader keeps a backslash as it is, so one that
 * would start an escape (`\n`, `\"`, one at the end) is written as `/`:
 * text whose exact bytes matter goes through {@link dotJson}.
 */
export function dotQuote(text: string): string {
  return `"${text.replace(/\\/g, '/').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n')}"`;
}

/**
 * A DOT string literal holding a JSON value that survives the loader
 * exactly: every escape in the JSON text is written as `\uXXXX` (the loader
 * keeps those as they are), so only the JSON's own quotes need escaping.
 */
export function dotJson(value: unknown): string {
  const json = JSON.stringify(value).replace(/\\(["\\/bfnrt])/g, (_m, c: string) => {
    const code = ({ '"': 0x22, '\\': 0x5c, '/': 0x2f, b: 0x08, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09 } as Record<string, number>)[c] as number;
    return `\\u${code.toString(16).padStart(4, '0')}`;
  });
  return `"${json.replace(/"/g, '\\"')}"`;
}
