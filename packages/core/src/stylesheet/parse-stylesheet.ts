import {
  STYLESHEET_PROPERTIES,
  type Selector,
  type Stylesheet,
  type StylesheetError,
  type StylesheetProperty,
  type StylesheetRule,
} from './stylesheet.js';

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;
const CLASS_NAME = /[A-Za-z0-9_-]+/y;
const PROPERTY = /[A-Za-z_][A-Za-z0-9_.-]*/y;
const BARE_VALUE = /[A-Za-z0-9_.:\/@+-]+/y;

class Failure extends Error {
  constructor(readonly detail: StylesheetError) {
    super(detail.message);
  }
}

/** The result of {@link parseStylesheet}. */
export type StylesheetParseResult = { ok: true; stylesheet: Stylesheet } | { ok: false; error: StylesheetError };

/**
 * Parses a model stylesheet (spec §8.2): rules of `selector { property: value; ... }`
 * with selectors `*`, a shape name, `.class` or `#id`. `/* ... *\/` comments are
 * allowed, and class names may also hold capitals and `_` (a superset of the
 * spec's `[a-z0-9-]+`, so every `class` attribute value can be selected). Properties other than `llm_model`, `llm_provider`,
 * `reasoning_effort` and orchestra's `agent.backend` are errors, so typos do not pass silently.
 */
export function parseStylesheet(source: string): StylesheetParseResult {
  try {
    return { ok: true, stylesheet: { rules: new StylesheetParser(source).parse() } };
  } catch (error) {
    if (error instanceof Failure) return { ok: false, error: error.detail };
    throw error;
  }
}

class StylesheetParser {
  private pos = 0;

  constructor(private readonly src: string) {}

  parse(): StylesheetRule[] {
    const rules: StylesheetRule[] = [];
    for (;;) {
      this.skip();
      if (this.pos >= this.src.length) return rules;
      rules.push(this.rule());
    }
  }

  private rule(): StylesheetRule {
    const index = this.pos;
    const selector = this.selector();
    this.skip();
    this.expect('{', 'expected "{" after the selector');
    const declarations: StylesheetRule['declarations'] = [];
    for (;;) {
      this.skip();
      if (this.peek() === '}') {
        this.pos += 1;
        return { selector, declarations, index };
      }
      if (this.pos >= this.src.length) this.fail('unclosed rule: expected "}"', 'close the rule with "}"');
      declarations.push(this.declaration());
      this.skip();
      if (this.peek() === ';') this.pos += 1;
      else if (this.peek() !== '}') this.fail(`expected ";" or "}" after a declaration, found ${this.here()}`);
    }
  }

  private selector(): Selector {
    const c = this.peek();
    if (c === '*') {
      this.pos += 1;
      return { kind: 'universal' };
    }
    if (c === '#') {
      this.pos += 1;
      return { kind: 'id', id: this.match(IDENT, 'expected a node id after "#"') };
    }
    if (c === '.') {
      this.pos += 1;
      return {
        kind: 'class',
        className: this.match(CLASS_NAME, 'expected a class name after "."'),
      };
    }
    return { kind: 'shape', shape: this.match(IDENT, `expected a selector (*, shape, .class or #id), found ${this.here()}`) };
  }

  private declaration(): { property: StylesheetProperty; value: string } {
    const at = this.pos;
    const property = this.match(PROPERTY, `expected a property name, found ${this.here()}`);
    if (!(STYLESHEET_PROPERTIES as readonly string[]).includes(property)) {
      this.pos = at;
      this.fail(`unknown property ${JSON.stringify(property)}`, `use one of ${STYLESHEET_PROPERTIES.join(', ')}`);
    }
    this.skip();
    this.expect(':', `expected ":" after ${JSON.stringify(property)}`);
    this.skip();
    return { property: property as StylesheetProperty, value: this.value() };
  }

  private value(): string {
    if (this.peek() === '"') {
      const start = this.pos;
      let value = '';
      this.pos += 1;
      while (this.pos < this.src.length) {
        const c = this.src[this.pos] as string;
        if (c === '"') {
          this.pos += 1;
          return value;
        }
        if (c === '\\' && this.pos + 1 < this.src.length) {
          value += this.src[this.pos + 1];
          this.pos += 2;
          continue;
        }
        value += c;
        this.pos += 1;
      }
      this.pos = start;
      this.fail('unterminated quoted value');
    }
    return this.match(BARE_VALUE, `expected a value, found ${this.here()}`);
  }

  private skip(): void {
    for (;;) {
      while (this.pos < this.src.length && /\s/.test(this.src[this.pos] as string)) this.pos += 1;
      if (!this.src.startsWith('/*', this.pos)) return;
      const end = this.src.indexOf('*/', this.pos + 2);
      if (end === -1) this.fail('unterminated comment');
      this.pos = end + 2;
    }
  }

  private match(re: RegExp, message: string): string {
    re.lastIndex = this.pos;
    const m = re.exec(this.src);
    if (!m) this.fail(message);
    this.pos = re.lastIndex;
    return (m as RegExpExecArray)[0];
  }

  private expect(ch: string, message: string): void {
    if (this.peek() !== ch) this.fail(`${message}, found ${this.here()}`);
    this.pos += 1;
  }

  private peek(): string | undefined {
    return this.src[this.pos];
  }

  private here(): string {
    return this.pos >= this.src.length ? 'end of stylesheet' : JSON.stringify(this.src[this.pos]);
  }

  private fail(message: string, fix?: string): never {
    const detail: StylesheetError = { message, index: this.pos };
    if (fix !== undefined) detail.fix = fix;
    throw new Failure(detail);
  }
}
