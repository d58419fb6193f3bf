import { describe, expect, it } from 'vitest';
import { REQUIREMENTS } from '../spec/requirements/index.js';
import { GAPS, REASON_KINDS, UNITS_BY_DOC, type Unit } from '../spec/units/index.js';
import { elements, misquoted, readSpecDocument, uncovered } from '../src/spec-units.js';

const DOCS = [1, 2] as const;
const ALL_UNITS: Unit[] = [...UNITS_BY_DOC[1], ...UNITS_BY_DOC[2]];
const REQUIREMENT_IDS = new Set(REQUIREMENTS.map((r) => r.id));
const GAP_IDS = new Set(GAPS.map((g) => g.unit));

describe('the element parser', () => {
  const sample = [
    '# Title', '', 'First sentence here. Second one `quoted`.', '| A | B |', '|---|---|', '| a1 | b1 |',
    '- Item one. Item two.', '3. Numbered item', '**Bold heading** (note)',
  ].join('\n');

  it('yields data rows, list items split into sentences, prose sentences; never headings, header or separator rows', () => {
    expect(elements(sample).map((e) => [e.kind, e.text])).toEqual([
      ['sentence', 'First sentence here.'], ['sentence', 'Second one `quoted`.'], ['row', '| a1 | b1 |'],
      ['item', 'Item one.'], ['item', 'Item two.'], ['item', 'Numbered item'], ['sentence', '**Bold heading** (note)'],
    ]);
  });

  it('reports an element no unit lies within, and a unit found twice or not at all', () => {
    const units = [{ id: 'a', text: 'First sentence' }, { id: 'b', text: 'b1' }, { id: 'c', text: 'Item' }, { id: 'd', text: 'absent' }];
    expect(uncovered(units, sample).map((e) => e.text)).toEqual(['Second one `quoted`.', 'Numbered item', '**Bold heading** (note)']);
    expect(misquoted(units, sample)).toEqual([{ id: 'c', found: 2 }, { id: 'd', found: 0 }]);
  });
});

describe.each(DOCS)('document %i', (doc) => {
  const markdown = readSpecDocument(doc);
  const units = UNITS_BY_DOC[doc];

  it('quotes every unit verbatim (whitespace aside), found exactly once', () => {
    expect(misquoted(units, markdown)).toEqual([]);
  });

  it('has a unit for every table row, list item and prose sentence', () => {
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

  it('maps only to requirements that exist', () => {
    const missing = [...ALL_UNITS.flatMap((u) => u.requirements ?? []), ...GAPS.flatMap((g) => g.partly ?? [])].filter((id) => !REQUIREMENT_IDS.has(id));
    expect(missing).toEqual([]);
  });

  it('maps every requirement from some unit', () => {
    const mapped = new Set([...ALL_UNITS.flatMap((u) => u.requirements ?? []), ...GAPS.flatMap((g) => g.partly ?? [])]);
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
