/**
 * Reads the two spec documents and judges the units of spec/units against them: every unit's text
 * is found (once) in its document, and every table row and every clause of every list item and
 * prose sentence lies within some unit or holds one, so a rule nobody wrote down as a unit is caught.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Unit } from '../spec/units/types.js';
import { PACKAGE_ROOT } from '../core/paths.js';

export type DocNumber = 1 | 2;

/** The spec documents live beside the repository (`shared/spec`), or where CONFORMANCE_SPEC_DIR says. */
export function specDirectory(): string {
  const given = process.env.CONFORMANCE_SPEC_DIR;
  if (given) return given;
  for (let dir = PACKAGE_ROOT; ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'spec');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`no shared/spec directory above ${PACKAGE_ROOT}; set CONFORMANCE_SPEC_DIR`);
  }
}

export function readSpecDocument(doc: DocNumber, dir = specDirectory()): string {
  const name = readdirSync(dir).find((f) => f.startsWith(`0${doc}-`) && f.endsWith('.md'));
  if (!name) throw new Error(`document ${doc} not found in ${dir}`);
  return readFileSync(join(dir, name), 'utf8');
}

/** Whitespace is the only thing normalized: runs of it become one space. */
export const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Passages of one unit's text, in document order, are joined with this (as requirement sentences do). */
export const ELISION = ' … ';

/** A stretch of the normalized document. */
export interface Span {
  start: number;
  end: number;
}

export interface Element extends Span {
  line: number;
  kind: 'row' | 'item' | 'sentence';
  text: string;
  /** Top-level `; ` clauses of items and sentences, each to be covered on its own; a row is one clause. */
  clauses: Span[];
}

const SEPARATOR = /^\|[\s|:-]+\|?$/;
/** Sentence ends: a full stop, then a space and what starts a sentence. */
const SENTENCE_END = /(?<=\.) (?=[A-Z`(*])/g;

/** Splits at `; ` outside brackets and code. */
function clauses(text: string, offset: number): Span[] {
  const out: Span[] = [];
  let depth = 0;
  let code = false;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '`') code = !code;
    else if (!code && '([{'.includes(c)) depth += 1;
    else if (!code && ')]}'.includes(c)) depth = Math.max(0, depth - 1);
    else if (!code && depth === 0 && c === ';' && text[i + 1] === ' ') {
      out.push({ start: offset + from, end: offset + i });
      from = i + 2;
    }
  }
  out.push({ start: offset + from, end: offset + text.length });
  return out;
}

/** The document as one normalized string (what unit texts are looked up in) and its elements. */
export function parse(markdown: string): { text: string; elements: Element[] } {
  const lines = markdown.split('\n').map(normalize);
  const elements: Element[] = [];
  let text = '';
  lines.forEach((line, i) => {
    if (!line) return;
    if (text) text += ' ';
    const at = text.length;
    text += line;
    if (line.startsWith('#') || SEPARATOR.test(line)) return;
    if (line.startsWith('|')) {
      if (!SEPARATOR.test(lines[i + 1] ?? '')) elements.push({ line: i + 1, kind: 'row', text: line, start: at, end: at + line.length, clauses: [{ start: at, end: at + line.length }] });
      return;
    }
    const item = /^(?:- |\d+\. )/.exec(line);
    const bodyAt = item ? item[0].length : 0;
    const ends = [...line.slice(bodyAt).matchAll(SENTENCE_END)].map((m) => bodyAt + m.index);
    [bodyAt, ...ends.map((e) => e + 1)].forEach((from, k) => {
      const to = k < ends.length ? ends[k]! : line.length;
      const sentence = line.slice(from, to);
      elements.push({ line: i + 1, kind: item ? 'item' : 'sentence', text: sentence, start: at + from, end: at + to, clauses: clauses(sentence, at + from) });
    });
  });
  return { text, elements };
}

/** Convenience for callers that only want the elements. */
export const elements = (markdown: string) => parse(markdown).elements;

const occurrences = (haystack: string, needle: string) => {
  let n = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) n += 1;
  return n;
};

/** Where a unit lies: its first passage must occur exactly once, the others in order after it. */
function locate(unit: Unit, doc: string): Span | { problem: string } {
  const [first, ...rest] = normalize(unit.text).split(normalize(ELISION)).map((p) => p.trim());
  const found = occurrences(doc, first!);
  if (found !== 1) return { problem: `found ${found} times` };
  const start = doc.indexOf(first!);
  let end = start + first!.length;
  for (const passage of rest) {
    const at = doc.indexOf(passage, end);
    if (at < 0) return { problem: `passage not found after the previous one: ${passage}` };
    end = at + passage.length;
  }
  return { start, end };
}

/** Units whose text is not found in the document as it should be (whitespace normalized). */
export function misquoted(units: readonly Unit[], markdown: string): { id: string; problem: string }[] {
  const { text } = parse(markdown);
  return units.flatMap((u) => {
    const where = locate(u, text);
    return 'problem' in where ? [{ id: u.id, problem: where.problem }] : [];
  });
}

const within = (inner: Span, outer: Span) => inner.start >= outer.start && inner.end <= outer.end;

/** Clauses (rows, or clauses of items and sentences) that no unit lies within and no unit holds. */
export function uncovered(units: readonly Unit[], markdown: string): { line: number; text: string }[] {
  const { text, elements: all } = parse(markdown);
  const spans = units.map((u) => locate(u, text)).filter((s): s is Span => !('problem' in s));
  return all.flatMap((e) => e.clauses
    .filter((c) => !spans.some((s) => within(s, c) || within(c, s)))
    .map((c) => ({ line: e.line, text: text.slice(c.start, c.end) })));
}
