/** The properties a model stylesheet may set (spec §8.4, plus orchestra's `agent.backend`). */
export const STYLESHEET_PROPERTIES = [
  'llm_model',
  'llm_provider',
  'reasoning_effort',
  'agent.backend',
  // a phased stage's per-phase models (orchestra extension)
  'discuss.llm_model',
  'discuss.llm_provider',
  'summarize.llm_model',
  'summarize.llm_provider',
  'serialize.llm_model',
  'serialize.llm_provider',
] as const;

/** A property a model stylesheet may set. */
export type StylesheetProperty = (typeof STYLESHEET_PROPERTIES)[number];

/** A selector: universal, by shape, by class or by node id. */
export type Selector =
  | { kind: 'universal' }
  | { kind: 'shape'; shape: string }
  | { kind: 'class'; className: string }
  | { kind: 'id'; id: string };

/** One `selector { property: value; ... }` rule. */
export interface StylesheetRule {
  selector: Selector;
  declarations: { property: StylesheetProperty; value: string }[];
  /** 0-based index of the rule in the stylesheet text. */
  index: number;
}

/** A parsed model stylesheet. */
export interface Stylesheet {
  rules: StylesheetRule[];
}

/** Why a stylesheet does not parse, and where (0-based index into its text). */
export interface StylesheetError {
  message: string;
  index: number;
  fix?: string;
}

/** Specificity of a selector (spec §8.3): `*` 0, shape 1, class 2, id 3. */
export function specificity(selector: Selector): number {
  switch (selector.kind) {
    case 'universal':
      return 0;
    case 'shape':
      return 1;
    case 'class':
      return 2;
    case 'id':
      return 3;
  }
}
