/**
 * Reads the two spec documents and judges the units of spec/units against them: every unit's text
 * is found (once) in its document, and every table row, list item and prose sentence of the
 * documents is covered by some unit, so a rule nobody wrote down as a unit is caught.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Unit } from '../spec/units/types.js';
import { PACKAGE_ROOT } from './paths.js';

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

export interface Element {
  line: number;
  kind: 'row' | 'item' | 'sentence';
  text: string;
}

const SEPARATOR = /^\|[\s|:-]+\|?$/;
/** Sentence ends: a full stop, then a space and what starts a sentence. */
const SENTENCE_END = /(?<=\.)\s+(?=[A-Z`(*])/;

/**
 * The normative elements of a document: table rows (not header or separator rows), list items and
 * the sentences of prose paragraphs and list items. Headings are not elements.
 */
export function elements(markdown: string): Element[] {
  const lines = markdown.split('\n');
  const out: Element[] = [];
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#') || SEPARATOR.test(line)) return;
    if (line.startsWith('|')) {
      if (SEPARATOR.test(lines[i + 1]?.trim() ?? '')) return; // a header row
      out.push({ line: i + 1, kind: 'row', text: normalize(line) });
      return;
    }
    const item = /^(?:- |\d+\. )(.*)$/.exec(line);
    const body = item ? item[1]! : line;
    for (const sentence of body.split(SENTENCE_END)) {
      out.push({ line: i + 1, kind: item ? 'item' : 'sentence', text: normalize(sentence) });
    }
  });
  return out;
}

const occurrences = (haystack: string, needle: string) => {
  let n = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) n += 1;
  return n;
};

/** Units whose text is not found exactly once in the document (whitespace normalized). */
export function misquoted(units: readonly Unit[], markdown: string): { id: string; found: number }[] {
  const doc = normalize(markdown);
  return units.map((u) => ({ id: u.id, found: occurrences(doc, normalize(u.text)) })).filter((u) => u.found !== 1);
}

/** Elements of the document that no unit covers: no unit lies within the element, nor the element within a unit. */
export function uncovered(units: readonly Unit[], markdown: string): Element[] {
  const texts = units.map((u) => normalize(u.text));
  return elements(markdown).filter((e) => !texts.some((t) => e.text.includes(t) || t.includes(e.text)));
}
