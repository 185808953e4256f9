import type { Condition, ConditionClause, ConditionError, ConditionParseResult } from './condition.js';

const KEY = /[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*/y;
const BARE = /[A-Za-z0-9_.:-]+/y;
const SPACE = /\s*/y;

class Failure extends Error {
  constructor(readonly detail: ConditionError) {
    super(detail.message);
  }
}

/**
 * Parses a condition expression (spec §10.2): `Clause ( && Clause )*`, where a
 * clause is `key = literal`, `key != literal` or a bare `key` (truthy test).
 * Keys are `outcome`, `preferred_label`, `context.path` or an unqualified
 * context key. Literals are bare (`success`, `3`, `a.b:c-d`) or double-quoted
 * with `\"`, `\\`, `\n`, `\t` escapes. The one parser serves lint and engine.
 */
export function parseCondition(source: string): ConditionParseResult {
  try {
    return { ok: true, condition: { source, clauses: new ConditionParser(source).parse() } };
  } catch (error) {
    if (error instanceof Failure) return { ok: false, error: error.detail };
    throw error;
  }
}

class ConditionParser {
  private pos = 0;

  constructor(private readonly src: string) {}

  parse(): ConditionClause[] {
    const clauses: ConditionClause[] = [];
    this.skipSpace();
    if (this.pos === this.src.length) return clauses;
    for (;;) {
      clauses.push(this.clause());
      this.skipSpace();
      if (this.pos === this.src.length) return clauses;
      if (this.src.startsWith('&&', this.pos)) {
        this.pos += 2;
        this.skipSpace();
        if (this.pos === this.src.length || this.src.startsWith('&&', this.pos)) {
          this.fail('empty clause after "&&"', 'remove the extra "&&" or add a clause');
        }
        continue;
      }
      if (this.src.startsWith('||', this.pos)) this.fail('"||" is not supported: clauses can only be joined with "&&"', 'use two edges, one per alternative');
      this.fail(`unexpected ${this.describeHere()} after a clause`, 'join clauses with "&&"');
    }
  }

  private clause(): ConditionClause {
    const index = this.pos;
    if (this.src.startsWith('&&', this.pos)) this.fail('empty clause before "&&"', 'remove the leading "&&"');
    if (this.src[this.pos] === '!') this.fail('negation "!" is not supported', 'compare with "!=" instead');
    KEY.lastIndex = this.pos;
    const m = KEY.exec(this.src);
    if (!m) this.fail(`expected a key (outcome, preferred_label or context.name), found ${this.describeHere()}`);
    const key = (m as RegExpExecArray)[0];
    this.pos = KEY.lastIndex;
    this.skipSpace();
    const rest = this.src.slice(this.pos);
    if (rest === '' || rest.startsWith('&&')) return { key, op: 'truthy', index };
    let op: '=' | '!=';
    if (rest.startsWith('==')) this.fail('"==" is not an operator here', 'write a single "=" for equality');
    if (rest.startsWith('=~') || rest.startsWith('!~')) this.fail(`operator "${rest.slice(0, 2)}" is not supported: only "=" and "!="`);
    if (rest.startsWith('!=')) {
      op = '!=';
      this.pos += 2;
    } else if (rest.startsWith('=')) {
      op = '=';
      this.pos += 1;
    } else if (/^(?:<=?|>=?|~|contains\b|matches\b)/.test(rest)) {
      this.fail(`operator ${JSON.stringify(/^\S+/.exec(rest)?.[0] ?? rest[0])} is not supported: only "=" and "!="`);
    } else {
      this.fail(`expected "=" or "!=" after ${JSON.stringify(key)}, found ${this.describeHere()}`);
    }
    this.skipSpace();
    const value = this.literal();
    return { key, op: op!, value, index };
  }

  private literal(): string {
    const start = this.pos;
    if (this.src[this.pos] === '"') {
      let value = '';
      this.pos += 1;
      while (this.pos < this.src.length) {
        const c = this.src[this.pos] as string;
        if (c === '"') {
          this.pos += 1;
          return value;
        }
        if (c === '\\' && this.pos + 1 < this.src.length) {
          const e = this.src[this.pos + 1] as string;
          value += e === 'n' ? '\n' : e === 't' ? '\t' : e === '"' || e === '\\' ? e : `\\${e}`;
          this.pos += 2;
          continue;
        }
        value += c;
        this.pos += 1;
      }
      this.pos = start;
      this.fail('unterminated quoted value', 'close the value with a double quote');
    }
    BARE.lastIndex = this.pos;
    const m = BARE.exec(this.src);
    if (!m || this.src.startsWith('&&', this.pos)) {
      this.fail('missing value after the operator', 'write "" to compare with the empty string');
    }
    this.pos = BARE.lastIndex;
    const next = this.src[this.pos];
    if (next !== undefined && !/\s|&/.test(next)) {
      this.fail(`unexpected ${this.describeHere()} in a value`, 'put values with special characters in double quotes');
    }
    return (m as RegExpExecArray)[0];
  }

  private skipSpace(): void {
    SPACE.lastIndex = this.pos;
    SPACE.exec(this.src);
    this.pos = SPACE.lastIndex;
  }

  private describeHere(): string {
    return this.pos >= this.src.length ? 'end of condition' : JSON.stringify(this.src[this.pos]);
  }

  private fail(message: string, fix?: string): never {
    const detail: ConditionError = { message, index: this.pos };
    if (fix !== undefined) detail.fix = fix;
    throw new Failure(detail);
  }
}

/** Parses a condition or throws an error whose message names the position. */
export function parseConditionOrThrow(source: string): Condition {
  const result = parseCondition(source);
  if (result.ok) return result.condition;
  throw new SyntaxError(`invalid condition ${JSON.stringify(source)} at ${result.error.index}: ${result.error.message}`);
}
