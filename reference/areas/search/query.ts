/**
 * The search query language: keywords (bare words or "quoted phrases"), qualifiers `name:value`
 * and the upper-case boolean operators AND, OR, NOT (precedence NOT > AND > OR, implicit AND
 * between keywords). Qualifiers apply to the whole query; operators combine keywords only.
 */
import { SEARCH_OPERATORS } from '../../../spec/limits.js';

export type Expr =
  | { kind: 'term'; text: string }
  | { kind: 'not'; expr: Expr }
  | { kind: 'and' | 'or'; items: Expr[] };

export interface Qualifier {
  name: string;
  value: string;
}

export interface ParsedQuery {
  qualifiers: Qualifier[];
  /** Boolean operators written in q. */
  operators: number;
  /** Null when q holds qualifiers only. */
  expr: Expr | null;
  /** Length the spec limits: the keywords joined by single spaces, operators and qualifiers excluded. */
  keywordLength: number;
}

type Token = { kind: 'op'; op: (typeof SEARCH_OPERATORS)[number] } | { kind: 'term'; text: string };

/** A query whose operators lack operands, e.g. `widget AND`. */
export class QuerySyntaxError extends Error {}

/** Splits on spaces outside double quotes; a quote may also open inside a word (`label:"help wanted"`). A word opening with a quote is a phrase. */
function words(q: string): { raw: string; phrase: boolean }[] {
  const out: { raw: string; phrase: boolean }[] = [];
  let i = 0;
  while (i < q.length) {
    if (/\s/.test(q[i]!)) {
      i++;
      continue;
    }
    let raw = '';
    const phrase = q[i] === '"';
    while (i < q.length && !/\s/.test(q[i]!)) {
      if (q[i] === '"') {
        const close = q.indexOf('"', i + 1);
        const end = close < 0 ? q.length : close;
        raw += q.slice(i + 1, end);
        i = end + 1;
      } else raw += q[i++];
    }
    if (raw) out.push({ raw, phrase });
  }
  return out;
}

/** `qualifierNames` are the qualifiers the endpoint understands; any other `x:y` word is a keyword. */
export function parseQuery(q: string, qualifierNames: ReadonlySet<string>): ParsedQuery {
  const qualifiers: Qualifier[] = [];
  const tokens: Token[] = [];
  for (const { raw, phrase } of words(q)) {
    const op = SEARCH_OPERATORS.find((o) => o === raw);
    const colon = raw.indexOf(':');
    const name = colon > 0 ? raw.slice(0, colon).toLowerCase() : '';
    if (op && !phrase) tokens.push({ kind: 'op', op });
    else if (!phrase && qualifierNames.has(name) && colon < raw.length - 1) qualifiers.push({ name, value: raw.slice(colon + 1) });
    else tokens.push({ kind: 'term', text: raw });
  }
  const terms = tokens.filter((t): t is Extract<Token, { kind: 'term' }> => t.kind === 'term');
  return {
    qualifiers,
    operators: tokens.length - terms.length,
    expr: tokens.length ? parseExpr(tokens) : null,
    keywordLength: terms.map((t) => t.text).join(' ').length,
  };
}

function parseExpr(tokens: Token[]): Expr {
  let pos = 0;
  const peek = () => tokens[pos];
  const isOp = (op: string) => { const t = peek(); return t?.kind === 'op' && t.op === op; };
  const or = (): Expr => {
    const items = [and()];
    while (isOp('OR')) {
      pos++;
      items.push(and());
    }
    return items.length === 1 ? items[0]! : { kind: 'or', items };
  };
  const and = (): Expr => {
    const items = [not()];
    while (peek() && !isOp('OR')) {
      if (isOp('AND')) pos++;
      items.push(not());
    }
    return items.length === 1 ? items[0]! : { kind: 'and', items };
  };
  const not = (): Expr => {
    const t = peek();
    pos++;
    if (t?.kind === 'term') return t;
    if (t?.kind === 'op' && t.op === 'NOT') return { kind: 'not', expr: not() };
    throw new QuerySyntaxError(t ? `unexpected ${t.op}` : 'an operator lacks its operand');
  };
  const expr = or();
  if (pos < tokens.length) throw new QuerySyntaxError('unexpected operator');
  return expr;
}

/** Keywords that must appear (not under NOT): they score and yield text matches. */
export function positiveTerms(expr: Expr | null, negated = false): string[] {
  if (!expr) return [];
  if (expr.kind === 'term') return negated ? [] : [expr.text];
  if (expr.kind === 'not') return positiveTerms(expr.expr, !negated);
  return expr.items.flatMap((e) => positiveTerms(e, negated));
}

/** Whether a record whose searchable texts are `texts` satisfies the expression (case-insensitive substring match). */
export function evaluate(expr: Expr, texts: readonly string[]): boolean {
  switch (expr.kind) {
    case 'term': {
      const needle = expr.text.toLowerCase();
      return texts.some((t) => t.toLowerCase().includes(needle));
    }
    case 'not': return !evaluate(expr.expr, texts);
    case 'and': return expr.items.every((e) => evaluate(e, texts));
    case 'or': return expr.items.some((e) => evaluate(e, texts));
  }
}

/** Values of one qualifier, comma lists split (`in:title,body`). */
export function qualifierValues(qualifiers: readonly Qualifier[], name: string): string[] {
  return qualifiers.filter((q) => q.name === name).flatMap((q) => q.value.toLowerCase().split(',')).filter(Boolean);
}

/** Start offsets of every case-insensitive occurrence of `needle` in `text`. */
export function occurrences(text: string, needle: string): number[] {
  const out: number[] = [];
  const hay = text.toLowerCase();
  const n = needle.toLowerCase();
  if (!n) return out;
  for (let i = hay.indexOf(n); i >= 0; i = hay.indexOf(n, i + n.length)) out.push(i);
  return out;
}
