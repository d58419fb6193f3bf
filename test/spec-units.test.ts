import { describe, expect, it } from 'vitest';
import { REQUIREMENTS } from '../spec/requirements/index.js';
import { GAPS, REASON_KINDS, UNITS_BY_DOC, type Unit } from '../spec/units/index.js';
import { elements, misquoted, parse, readSpecDocument, uncovered } from '../src/spec-units.js';

const DOCS = [1, 2] as const;
const ALL_UNITS: Unit[] = [...UNITS_BY_DOC[1], ...UNITS_BY_DOC[2]];
const REQUIREMENT_IDS = new Set(REQUIREMENTS.map((r) => r.id));
const GAP_IDS = new Set(GAPS.map((g) => g.unit));

describe('the element parser', () => {
  const sample = [
    '# Title', '', 'First sentence here. Second one `quoted`.', '| A | B |', '|---|---|', '| a1 | b1 |',
    '- Item one. Item two; (not; split) `nor; this`; third clause.', '3. Numbered item', '**Bold heading** (note)',
  ].join('\n');

  it('yields data rows, list items split into sentences, prose sentences; never headings, header or separator rows', () => {
    expect(elements(sample).map((e) => [e.kind, e.text])).toEqual([
      ['sentence', 'First sentence here.'], ['sentence', 'Second one `quoted`.'], ['row', '| a1 | b1 |'],
      ['item', 'Item one.'], ['item', 'Item two; (not; split) `nor; this`; third clause.'], ['item', 'Numbered item'],
      ['sentence', '**Bold heading** (note)'],
    ]);
  });

  it('splits items and sentences into clauses at "; " outside brackets and code', () => {
    const { text, elements: all } = parse(sample);
    expect(all[4]!.clauses.map((c) => text.slice(c.start, c.end))).toEqual(['Item two', '(not; split) `nor; this`', 'third clause.']);
  });

  it('reports a clause no unit lies within or holds, and a unit found twice, not at all, or with a passage out of order', () => {
    const units = [
      { id: 'a', text: 'First sentence' }, { id: 'b', text: 'b1' }, { id: 'c', text: 'Item' }, { id: 'd', text: 'absent' },
      { id: 'e', text: 'Item two … clause.' }, { id: 'f', text: 'Numbered … First' },
    ];
    expect(uncovered(units, sample).map((e) => e.text)).toEqual(['Second one `quoted`.', 'Item one.', 'Numbered item', '**Bold heading** (note)']);
    expect(misquoted(units, sample).map((m) => m.id)).toEqual(['c', 'd', 'f']);
  });
});

describe.each(DOCS)('document %i', (doc) => {
  const markdown = readSpecDocument(doc);
  const units = UNITS_BY_DOC[doc];

  it('quotes every unit verbatim (whitespace aside), found exactly once', () => {
    expect(misquoted(units, markdown)).toEqual([]);
  });

  it('has a unit for every table row and every clause of every list item and prose sentence', () => {
    expect(uncovered(units, markdown).map((e) => `line ${e.line}: ${e.text}`)).toEqual([]);
  });

  it('names units by document, section and content', () => {
    const bad = units.filter((u) => !new RegExp(`^d${doc}\\.[a-z0-9-]+\\.[a-z0-9-]+$`).test(u.id)).map((u) => u.id);
    expect(bad).toEqual([]);
  });
});

describe('unit mapping', () => {
  it('gives every unit one id of its own', () => {
    const ids = ALL_UNITS.map((u) => u.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('maps every unit to requirements, a reason, or a listed gap, and only one of them', () => {
    const unmapped = ALL_UNITS.filter((u) => !u.requirements?.length && !u.reason && !GAP_IDS.has(u.id)).map((u) => u.id);
    expect(unmapped, 'units mapped to nothing: map them, give a reason, or list them in spec/units/gaps.ts').toEqual([]);
    const both = ALL_UNITS.filter((u) => u.requirements?.length && u.reason).map((u) => u.id);
    expect(both).toEqual([]);
  });

  it('gives every reason a known kind and its own explanation', () => {
    const bad = ALL_UNITS.filter((u) => u.reason && (!(u.reason.kind in REASON_KINDS) || u.reason.why.trim().length < 10)).map((u) => u.id);
    expect(bad).toEqual([]);
  });

  it('maps only to requirements that exist, and names observers only of units not shown', () => {
    expect(ALL_UNITS.filter((u) => u.observedBy && u.reason?.kind !== 'not-shown').map((u) => u.id)).toEqual([]);
    const missing = [...ALL_UNITS.flatMap((u) => [...(u.requirements ?? []), ...(u.observedBy ?? [])]), ...GAPS.flatMap((g) => g.partly ?? [])].filter((id) => !REQUIREMENT_IDS.has(id));
    expect(missing).toEqual([]);
  });

  it('maps every requirement from some unit', () => {
    const mapped = new Set([...ALL_UNITS.flatMap((u) => [...(u.requirements ?? []), ...(u.observedBy ?? [])]), ...GAPS.flatMap((g) => g.partly ?? [])]);
    expect(REQUIREMENTS.map((r) => r.id).filter((id) => !mapped.has(id))).toEqual([]);
  });
});

describe('the gap ratchet', () => {
  it('lists only units that exist and are still unmapped, once each', () => {
    const byId = new Map(ALL_UNITS.map((u) => [u.id, u]));
    const stale = GAPS.filter((g) => { const u = byId.get(g.unit); return !u || u.requirements?.length || u.reason; }).map((g) => g.unit);
    expect(stale, 'a listed gap that is mapped or gone: remove it from spec/units/gaps.ts').toEqual([]);
    expect(GAPS.length).toBe(GAP_IDS.size);
  });

  it('says for each gap which rule is missing', () => {
    expect(GAPS.filter((g) => g.missing.trim().length < 20).map((g) => g.unit)).toEqual([]);
  });
});
