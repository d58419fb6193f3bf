/**
 * Units that state server behaviour no requirement enforces (fully) yet, with the rule that is
 * missing. A ratchet: the test fails for an unmapped unit not listed here and for a listed unit
 * that has become mapped, so the list only shrinks.
 */
export interface Gap {
  unit: string;
  /** The rule no check enforces yet. */
  missing: string;
  /** Requirements that enforce part of the unit (the rest is `missing`). */
  partly?: readonly string[];
}

export const GAPS: readonly Gap[] = [
  // Document 1.
  { unit: 'd1.text-match.object-url', missing: 'text_matches[].object_url is the URL of the resource holding the matched property; text_matches items are never validated against their schema' },
  { unit: 'd1.text-match.object-type', missing: 'text_matches[].object_type is the type name of that resource (never validated)' },
  { unit: 'd1.text-match.property', missing: 'text_matches[].property names a matched string property of that resource (never validated)' },
  { unit: 'd1.text-match.fragment', missing: 'text_matches[].fragment is a substring of that property\'s value containing the match (only indices inside fragment are checked)', partly: ['search.text-match-indices'] },
  { unit: 'd1.auth.search-authenticated-kinds', missing: 'basic, OAuth and client-ID-plus-secret callers get the authenticated search limit (30 a minute); only a classic token\'s limit is read' },
];
