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
];
