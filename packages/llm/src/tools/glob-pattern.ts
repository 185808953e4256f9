const SPECIAL = /[.+^$()|\\]/;

/**
 * A glob as a regular expression: `*` (any characters but `/`), `**` (any
 * directories), `?` (one character), `[abc]` / `[!abc]`, `{a,b}`. Throws for
 * an unbalanced `{` or `[`.
 */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const slash = glob[i + 2] === '/';
        out += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) throw new Error(`invalid glob ${JSON.stringify(glob)}: "[" without "]"`);
      let body = glob.slice(i + 1, end).replace(/\\/g, '\\\\');
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      out += `[${body}]`;
      i = end;
    } else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) out += '|';
    else out += SPECIAL.test(c) ? `\\${c}` : c;
  }
  if (braces > 0) throw new Error(`invalid glob ${JSON.stringify(glob)}: "{" without "}"`);
  return new RegExp(`^${out}$`);
}

/**
 * Whether a file matches a glob: a glob without `/` is matched against the
 * file's name (`*.ts`), one with `/` against its workspace-relative path
 * (`src/**\/*.ts`).
 */
export function matchesGlob(pattern: RegExp, glob: string, relativePath: string): boolean {
  if (glob.includes('/')) return pattern.test(relativePath);
  const slash = relativePath.lastIndexOf('/');
  return pattern.test(relativePath.slice(slash + 1));
}
