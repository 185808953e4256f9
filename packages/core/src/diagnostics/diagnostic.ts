/** How serious a diagnostic is. `error` refuses execution. */
export type Severity = 'error' | 'warning' | 'info';

/** A 1-based position in a source file. */
export interface SourceLocation {
  /** File the position refers to, when known. */
  file?: string;
  /** 1-based line. */
  line: number;
  /** 1-based column, in UTF-16 code units. */
  column: number;
}

/** The edge a diagnostic refers to, as `(from, to)`. */
export interface EdgeRef {
  from: string;
  to: string;
}

/**
 * One finding about a pipeline: a syntax error, a dialect violation or a lint
 * rule's verdict (spec §7.1).
 */
export interface Diagnostic {
  /** Stable rule identifier, e.g. `start_node`, `syntax`. */
  rule: string;
  severity: Severity;
  message: string;
  /** The node the finding is about, if any. */
  nodeId?: string;
  /** The edge the finding is about, if any. */
  edge?: EdgeRef;
  /** A suggested fix, if one is known. */
  fix?: string;
  /** Where in the source the finding points. */
  location?: SourceLocation;
}

/** True when any diagnostic is an error. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** Diagnostics sorted by file position (unlocated ones last), stable otherwise. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics
    .map((d, i) => ({ d, i }))
    .sort((a, b) => {
      const la = a.d.location;
      const lb = b.d.location;
      if (la && lb) return la.line - lb.line || la.column - lb.column || a.i - b.i;
      if (la) return -1;
      if (lb) return 1;
      return a.i - b.i;
    })
    .map(({ d }) => d);
}
