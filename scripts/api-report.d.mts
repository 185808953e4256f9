// Types of scripts/api-report.mjs, for the tests that import it.

/** An entry point of a workspace package. */
export interface EntryPoint {
  /** The name it is imported by: `@orchestra/core`, `@orchestra/core/store`. */
  name: string;
  /** Its key in the package's `exports`: `.`, `./store`. */
  subpath: string;
  /** Its source file, from the repository root. */
  source: string;
  /** Its report file, from the repository root. */
  report: string;
}

/** How to regenerate the reports, for messages. */
export const REGENERATE: string;
/** Every entry point of the workspace's packages. */
export function entryPoints(root?: string): EntryPoint[];
/** The report's text of each entry point, by report path (relative to the root). */
export function apiReports(root?: string): Map<string, string>;
/** The names a report lists, read back from its text. */
export function reportedNames(text: string): string[];
/** The reports that differ from the checked-in files (missing ones included). */
export function staleReports(root?: string, reports?: Map<string, string>): string[];
/** Report files on disk that no entry point makes any more. */
export function orphanReports(root?: string, reports?: Map<string, string>): string[];
